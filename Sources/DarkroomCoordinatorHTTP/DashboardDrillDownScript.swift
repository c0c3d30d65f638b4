/// The dashboard's drill-down and actions: batch → its jobs (paged, by state) → one job (source,
/// chain, outputs with a preview, timings, attempts, errors), and the dead letters with retry and
/// purge. It calls the job API's routes the coordinator serves under `/v1` (`ReadAndActRoutes`),
/// so what the page shows is what `darkroom api` answers.
///
/// Where the page is lives in the address's fragment (`#batch/NAME`, `#batch/NAME/STATE`,
/// `#job/ID`), so the browser's back button walks the drill-down and a view can be linked.
/// Buttons carry `data-action` and are handled by one listener on the document, because the
/// overview redraws its batches every two seconds. Every state-changing request is a same-origin
/// `fetch`, which the browser sends with this page's `Origin` (the server refuses one without it).
enum DashboardDrillDownScript {
    static let javascript = """
        const STATES = ["", "queued", "running", "retrying", "succeeded", "failed", "dead", "cancelled"];
        function actionButton(label, action, data) {
          const button = document.createElement("button"); button.type = "button"; button.textContent = label;
          button.dataset.action = action; Object.assign(button.dataset, data || {}); return button;
        }
        function element(tag, value, cls) { const e = document.createElement(tag); if (cls) e.className = cls; if (value !== undefined) e.textContent = String(value); return e; }
        function link(label, hash) { const a = element("a", label); a.href = hash; return a; }
        function sessionExpired() {
          const banner = $("session");
          banner.hidden = false; banner.dataset.state = "expired";
          banner.textContent = "Your session has ended: log in again by opening this address with ?token=YOUR_TOKEN";
        }
        // A JSON call to the job API's routes; a refusal throws its first error record's text.
        async function api(path, method, body) {
          const options = { method: method || "GET", credentials: "same-origin", cache: "no-store" };
          if (body !== undefined) { options.body = JSON.stringify(body); options.headers = { "Content-Type": "application/json" }; }
          const response = await fetch(path, options);
          if (response.status === 401) sessionExpired();
          let data = null;
          try { data = await response.json(); } catch (error) { /* not JSON: a 401's text */ }
          if (!response.ok) {
            const record = data && data.errors && data.errors[0];
            throw new Error(record ? `${record.code}: ${record.message}` : `HTTP ${response.status}`);
          }
          return data;
        }
        const enc = encodeURIComponent;

        // The drill-down view named by the fragment.
        let batchPage = null;
        async function route() {
          const [kind, ...rest] = location.hash.slice(1).split("/");
          const body = $("drill-body"); $("drill-result").textContent = "";
          try {
            if (kind === "batch" && rest.length) await showBatch(decodeURIComponent(rest[0]), decodeURIComponent(rest[1] || ""));
            else if (kind === "job" && rest.length) await showJob(decodeURIComponent(rest.join("/")));
            else { $("drill-title").textContent = "Jobs"; body.replaceChildren(element("p", "Choose a batch's jobs above, or a job of a dead letter below.", "empty")); }
          } catch (error) {
            body.replaceChildren(element("p", error.message, "code"));
          }
        }
        async function showBatch(name, state) {
          $("drill-title").textContent = `Batch ${name}`;
          const filter = document.createElement("select"); filter.id = "batch-state";
          for (const value of STATES) { const option = element("option", value || "every state"); option.value = value; option.selected = value === state; filter.appendChild(option); }
          filter.onchange = () => { location.hash = `#batch/${enc(name)}` + (filter.value ? `/${enc(filter.value)}` : ""); };
          const table = element("table"); table.id = "batch-jobs";
          table.createTHead().insertRow().append(element("th", "job"), element("th", "state"), element("th", "attempts"), element("th", "updated"));
          table.createTBody();
          const more = actionButton("more", "batch-more"); more.id = "batch-more"; more.hidden = true;
          const tools = element("p", undefined, "toolbar");
          tools.append(filter, actionButton("cancel the batch", "cancel-batch", { batch: name }));
          $("drill-body").replaceChildren(tools, table, more);
          batchPage = { name, state, cursor: null };
          await moreJobs();
        }
        // The next page of the batch's jobs, in the order they entered it.
        async function moreJobs() {
          const page = batchPage, query = new URLSearchParams({ limit: "50" });
          if (page.state) query.set("state", page.state);
          if (page.cursor) query.set("cursor", page.cursor);
          const answer = await api(`/v1/batches/${enc(page.name)}/jobs?${query}`);
          const tbody = $("batch-jobs").tBodies[0];
          for (const job of answer.jobs) {
            const row = tbody.insertRow(); row.dataset.job = job.id; row.dataset.state = job.state;
            row.insertCell().appendChild(link(job.id, `#job/${enc(job.id)}`));
            cell(row, job.state, "state-" + job.state); cell(row, job.attempts); cell(row, (job.updatedAt || "").replace("T", " ").slice(0, 19));
          }
          page.cursor = answer.nextCursor; $("batch-more").hidden = !answer.nextCursor;
          if (!tbody.rows.length) tbody.insertRow().appendChild(element("td", "no job in this state", "empty"));
        }
        async function showJob(id) {
          $("drill-title").textContent = `Job ${id}`;
          const job = await api(`/v1/jobs/${enc(id)}`);
          const view = element("div"); view.id = "job"; view.dataset.job = job.id; view.dataset.state = job.state;
          const list = element("dl", undefined, "job");
          const add = (term, value) => { if (value === undefined || value === null || value === "") return; list.append(element("dt", term), element("dd", value)); };
          add("state", job.state); add("attempt", job.attempt); add("worker", job.worker); add("updated", job.updatedAt);
          add("source", job.source); add("chain", job.chain);
          if (job.result) {
            const r = job.result;
            add("output", `${r.output || "(cache only)"} · ${r.format} ${r.width}×${r.height} · ${r.bytes} bytes · cache ${r.cache}`);
            add("timings", Object.entries(r.ms || {}).map(([stage, ms]) => `${stage} ${ms} ms`).join(" · "));
          }
          // Every attempt's error, oldest first; the latest alone from a server that sends no list.
          if (job.errors && job.errors.length) {
            const errors = element("ol", undefined, "errors"); errors.id = "job-errors";
            for (const e of job.errors) {
              const item = element("li", `attempt ${e.attempt} · ${e.code}: ${e.message}`); item.title = e.at; errors.appendChild(item);
            }
            const value = element("dd"); value.appendChild(errors);
            list.append(element("dt", job.errorsDropped ? `errors (${job.errorsDropped} older dropped)` : "errors"), value);
          } else if (job.error) add("error", `${job.error.code}: ${job.error.message}`);
          if (job.metadata) add("metadata", JSON.stringify(job.metadata));
          const tools = element("p", undefined, "toolbar");
          if (job.batch) tools.appendChild(link(`batch ${job.batch}`, `#batch/${enc(job.batch)}`));
          tools.appendChild(actionButton("cancel the job", "cancel-job", { job: job.id }));
          view.append(tools, list, preview(job));
          $("drill-body").replaceChildren(view);
        }
        // The output through GET /v1/jobs/{id}/output; when it cannot be shown, the answer's reason.
        function preview(job) {
          const missing = (reason) => { const p = element("p", `no preview: ${reason}`, "empty"); p.id = "job-preview-missing"; return p; };
          if (!job.hasOutput) return missing(job.state === "succeeded" ? "the result was kept in no file" : "the job has not succeeded");
          const image = document.createElement("img"); image.id = "job-preview"; image.alt = `output of ${job.id}`;
          image.onerror = async () => {
            let reason = "the output could not be read";
            try { await api(`/v1/jobs/${enc(job.id)}/output`); } catch (error) { reason = error.message; }
            image.replaceWith(missing(reason));
          };
          image.src = `/v1/jobs/${enc(job.id)}/output`;
          return image;
        }

        async function loadDeadLetters() {
          try {
            const answer = await api("/v1/dead-letters?limit=100");
            fill($("dead-letters").tBodies[0], answer.deadLetters, (row, letter) => {
              row.dataset.deadLetter = letter.id;
              if (letter.job) row.dataset.job = letter.job.id;
              cell(row, (letter.at || "").slice(11, 19));
              const job = row.insertCell(); if (letter.job) job.appendChild(link(letter.job.id, `#job/${enc(letter.job.id)}`));
              cell(row, letter.job ? letter.job.batch : ""); cell(row, letter.error.code, "code"); cell(row, letter.error.message);
              row.insertCell().appendChild(actionButton("retry", "retry-dead", { id: letter.id }));
            });
            const note = $("dead-letters-empty");
            note.hidden = answer.deadLetters.length > 0 && !answer.more;
            note.textContent = answer.more ? "the oldest 100 are shown; more wait behind them (retry all and purge all act on every one)" : "no dead letter";
          } catch (error) {
            $("dlq-result").textContent = error.message;
          }
        }

        // Every button, by its data-action. Cancelling and purging ask first: they cannot be undone.
        async function act(button) {
          const d = button.dataset, say = (id, text) => { $(id).textContent = text; };
          switch (d.action) {
            case "batch-jobs": location.hash = `#batch/${enc(d.batch)}`; return;
            case "batch-more": await moreJobs(); return;
            case "refresh": await route(); return;
            case "cancel-batch":
              if (!confirm(`Cancel the queued and delayed jobs of batch ${d.batch}?`)) return;
              say("drill-result", `batch ${d.batch}: ${(await api(`/v1/batches/${enc(d.batch)}`, "DELETE")).cancelled} jobs cancelled`); return;
            case "cancel-job":
              if (!confirm(`Cancel job ${d.job}?`)) return;
              say("drill-result", (await api(`/v1/jobs/${enc(d.job)}`, "DELETE")).cancelled ? "cancelled" : "not cancelled: it is not queued"); return;
            case "retry-dead": say("dlq-result", `retried ${(await api("/v1/dead-letters/retry", "POST", { ids: [d.id] })).retried}`); break;
            case "retry-all": say("dlq-result", `retried ${(await api("/v1/dead-letters/retry", "POST", {})).retried}`); break;
            case "purge":
              if (!confirm("Delete every dead letter?")) return;
              say("dlq-result", `purged ${(await api("/v1/dead-letters", "DELETE")).purged}`); break;
            default: return;
          }
          await loadDeadLetters();
        }
        document.addEventListener("click", (event) => {
          const button = event.target.closest("button[data-action]");
          if (!button) return;
          act(button).catch((error) => { $(button.closest("#dead-letters-card") ? "dlq-result" : "drill-result").textContent = error.message; });
        });
        window.addEventListener("hashchange", route);
        route();
        loadDeadLetters(); setInterval(loadDeadLetters, 5000);
        """
}
