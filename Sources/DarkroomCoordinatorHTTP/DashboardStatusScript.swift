/// The dashboard's overview script: the chart (from `/history` and the event stream), the
/// totals, queue depth, workers, batches and failures (from `/status`). Kept apart from the markup
/// (`DashboardPage`) and the drill-down (`DashboardDrillDownScript`) so each reads on its own; the
/// page inlines all three (no build step, no second request).
enum DashboardStatusScript {
    static let javascript = """
        "use strict";
        const $ = (id) => document.getElementById(id);
        const text = (value) => document.createTextNode(String(value));
        function cell(row, value, cls) { const td = row.insertCell(); if (cls) td.className = cls; td.appendChild(text(value)); return td; }
        function fill(tbody, items, render) { tbody.replaceChildren(); for (const item of items) render(tbody.insertRow(), item); }

        // The chart: the last hour, a point per minute. It opens with the coordinator's per-minute
        // series (GET /history, fetched at load and every 10 s); a job that ends between fetches
        // is added to its minute from the event stream, and the next fetch replaces the minute
        // with the coordinator's count. Latency has one definition on this page, the batches'
        // and `darkroom top`'s: from the start of a job's last attempt (its latest `started`
        // event) to its terminal event; the chart draws each minute's p95.
        const MINUTES = 60, minutes = new Map(), starts = new Map(), START_LIMIT = 100000;
        function minuteOf(ms) { return Math.floor(ms / 60000) * 60; }
        function entry(minute) {
          let item = minutes.get(minute);
          if (!item) { item = { jobs: 0, p95: null, live: [], failures: {}, retries: {} }; minutes.set(minute, item); }
          for (const key of minutes.keys()) if (key < minuteOf(Date.now()) - MINUTES * 60) minutes.delete(key);
          return item;
        }
        function record(event) {
          const at = Date.parse(event.at);
          if (!event.job || Number.isNaN(at)) return;
          if (event.type === "started") {
            starts.delete(event.job); starts.set(event.job, at);
            if (starts.size > START_LIMIT) starts.delete(starts.keys().next().value);
            return;
          }
          const retried = event.type === "failed" && event.error && event.error.willRetry;
          const started = starts.get(event.job);
          starts.delete(event.job);
          if ((event.type === "failed" || event.type === "dead") && event.error) {
            const counts = retried ? entry(minuteOf(at)).retries : entry(minuteOf(at)).failures;
            counts[event.error.code] = (counts[event.error.code] || 0) + 1;
          }
          if (retried || !["succeeded", "failed", "dead", "cancelled"].includes(event.type)) return;
          const item = entry(minuteOf(at));
          item.jobs += 1;
          if (started !== undefined) item.live.push(Math.max(at - started, 0));
        }
        async function loadHistory() {
          try {
            const response = await fetch(`/history?minutes=${MINUTES}`, { credentials: "same-origin", cache: "no-store" });
            if (!response.ok) throw new Error("HTTP " + response.status);
            const history = await response.json();
            minutes.clear();
            for (const minute of history.minutes || []) {
              minutes.set(Date.parse(minute.at) / 1000, {
                jobs: minute.ended, p95: minute.p95Ms ?? null, live: [], failures: minute.failures || {}, retries: minute.retries || {},
              });
            }
            $("chart").dataset.history = String((history.minutes || []).filter((m) => m.ended > 0).length);
            drawChart();
          } catch (error) {
            $("chart").dataset.history = "error";
          }
        }
        function quantile(values, q) {
          if (!values.length) return 0;
          const sorted = [...values].sort((a, b) => a - b);
          return sorted[Math.min(Math.max(Math.ceil(q * sorted.length) - 1, 0), sorted.length - 1)];
        }
        function drawChart() {
          const now = minuteOf(Date.now()), points = [];
          for (let start = now - (MINUTES - 1) * 60; start <= now; start += 60) {
            const item = minutes.get(start);
            const latency = !item ? 0 : item.p95 !== null ? Math.max(item.p95, quantile(item.live, 0.95)) : quantile(item.live, 0.95);
            points.push({ start, rate: item ? item.jobs / 60 : 0, latency });
          }
          const maxRate = Math.max(0.1, ...points.map((p) => p.rate)), maxLatency = Math.max(1, ...points.map((p) => p.latency));
          const x = (i) => (i / (points.length - 1)) * 400;
          $("chart-throughput").setAttribute("points", points.map((p, i) => `${x(i).toFixed(1)},${(135 - (p.rate / maxRate) * 115).toFixed(1)}`).join(" "));
          $("chart-latency").setAttribute("points", points.map((p, i) => `${x(i).toFixed(1)},${(135 - (p.latency / maxLatency) * 115).toFixed(1)}`).join(" "));
          $("chart-throughput-label").textContent = `jobs/s (max ${maxRate.toFixed(2)})`;
          $("chart-latency-label").textContent = `p95 latency ms (max ${maxLatency.toFixed(1)})`;
          renderFailureCodes();
        }
        // Failures of the chart's hour by code, final ones (failed for good, dead) apart from
        // those that will be retried, most frequent first.
        function renderFailureCodes() {
          const totals = new Map(), oldest = minuteOf(Date.now()) - (MINUTES - 1) * 60;
          const add = (code, key, n) => { const t = totals.get(code) || { final: 0, retried: 0 }; t[key] += n; totals.set(code, t); };
          for (const [minute, item] of minutes) {
            if (minute < oldest) continue;
            for (const [code, n] of Object.entries(item.failures)) add(code, "final", n);
            for (const [code, n] of Object.entries(item.retries)) add(code, "retried", n);
          }
          const rows = [...totals].sort((a, b) => b[1].final + b[1].retried - (a[1].final + a[1].retried) || a[0].localeCompare(b[0]));
          fill($("failure-codes").tBodies[0], rows, (row, [code, t]) => {
            row.dataset.failureCode = code; row.dataset.final = t.final; row.dataset.retried = t.retried;
            cell(row, code, "code"); cell(row, t.final); cell(row, t.retried);
          });
          $("failure-codes-empty").hidden = rows.length > 0;
        }

        // `status` is FleetStatus, the object `darkroom status --json` prints. Fields only a
        // coordinator's projections fill are absent without one and shown as "–".
        function renderStatus(status) {
          const queues = status.queues || {}, dash = "–";
          const ready = ["high", "normal", "low"].reduce((sum, p) => sum + ((queues[p] || {}).ready || 0), 0);
          $("total-ended").textContent = status.jobsEndedLastMinute ?? dash;
          $("total-ready").textContent = ready;
          $("total-inflight").textContent = status.inFlight ?? 0;
          $("total-dead").textContent = status.deadLetters ?? 0;
          $("total-workers").textContent = (status.workers || []).length;
          fill($("queue").tBodies[0], ["high", "normal", "low"], (row, priority) => {
            const queue = queues[priority] || {};
            row.dataset.priority = priority;
            cell(row, priority);
            cell(row, queue.ready ?? 0);
            cell(row, queue.lagSeconds !== undefined ? `${queue.lagSeconds.toFixed(1)} s` : dash);
          });
          $("queue-extra").textContent = `delayed ${status.delayed ?? dash} · in flight ${status.inFlight ?? dash} · dead letters ${status.deadLetters ?? dash}`;
          fill($("workers").tBodies[0], status.workers || [], (row, worker) => {
            const state = worker.currentJobs > 0 ? "busy" : "live";
            row.dataset.worker = worker.name; row.dataset.state = "live";
            cell(row, worker.name); cell(row, state, "state-" + (state === "busy" ? "busy" : "idle"));
            cell(row, worker.currentJobs ?? dash); cell(row, worker.jobsDone); cell(row, worker.errors ?? dash);
          });
          // A worker that died stays listed with the jobs it abandoned until they are reclaimed.
          for (const worker of status.deadWorkers || []) {
            const row = $("workers").tBodies[0].insertRow();
            row.dataset.worker = worker.name; row.dataset.state = "dead"; row.dataset.abandoned = worker.abandonedJobs;
            cell(row, worker.name); cell(row, "dead", "state-dead");
            cell(row, `${worker.abandonedJobs} abandoned`, "state-dead"); cell(row, dash);
            cell(row, worker.lastEventAt ? "last seen " + worker.lastEventAt.slice(11, 19) : dash);
          }
          const batches = $("batches"); batches.replaceChildren();
          if (!(status.batches || []).length) {
            const p = document.createElement("p"); p.className = "empty";
            p.textContent = status.coordinator ? "no batch lately" : "no coordinator: batches are listed by its projections";
            batches.appendChild(p);
          }
          for (const batch of status.batches || []) {
            const finished = batch.succeeded + batch.failed + batch.dead + batch.cancelled, total = Math.max(batch.total, finished);
            const div = document.createElement("div");
            div.className = "batch"; div.dataset.batch = batch.name; div.dataset.finished = finished; div.dataset.total = batch.total;
            div.dataset.cancelled = batch.cancelled;
            const label = document.createElement("div"); label.className = "label";
            const name = document.createElement("span"); name.textContent = batch.name;
            const count = document.createElement("span"); count.className = "count";
            let detail = `${finished}/${batch.total} (${batch.succeeded} ok, ${batch.failed + batch.dead} failed`;
            if (batch.cancelled > 0) detail += `, ${batch.cancelled} cancelled`;
            if (batch.running !== undefined) detail += `, ${batch.running} running`;
            if (batch.p95Ms !== undefined) detail += `, latency p95 ${Math.round(batch.p95Ms)} ms`;
            count.textContent = detail + ")";
            // The drill-down (DashboardDrillDownScript): the batch's jobs, and cancelling it.
            const actions = document.createElement("span"); actions.className = "actions";
            actions.append(actionButton("jobs", "batch-jobs", { batch: batch.name }), actionButton("cancel", "cancel-batch", { batch: batch.name }));
            label.append(name, count, actions);
            const bar = document.createElement("div"); bar.className = "bar";
            bar.setAttribute("role", "progressbar"); bar.setAttribute("aria-valuemax", String(total)); bar.setAttribute("aria-valuenow", String(finished));
            const ok = document.createElement("span"); ok.className = "ok"; ok.style.width = total ? `${(100 * batch.succeeded) / total}%` : "0";
            const bad = document.createElement("span"); bad.className = "bad"; bad.style.width = total ? `${(100 * (batch.failed + batch.dead)) / total}%` : "0";
            const cancelled = document.createElement("span"); cancelled.className = "cancelled";
            cancelled.style.width = total ? `${(100 * batch.cancelled) / total}%` : "0";
            bar.append(ok, bad, cancelled); div.append(label, bar); batches.appendChild(div);
          }
          fill($("failures").tBodies[0], status.failures || [], (row, failure) => {
            row.dataset.code = failure.code;
            cell(row, (failure.at || "").slice(11, 19)); cell(row, failure.code, "code");
            cell(row, failure.job || ""); cell(row, failure.message + (failure.willRetry ? " (will retry)" : ""));
          });
          const updated = $("status-updated"); updated.className = ""; updated.textContent = "updated " + new Date().toLocaleTimeString();
        }
        async function poll() {
          try {
            const response = await fetch("/status", { credentials: "same-origin", cache: "no-store" });
            if (response.status === 401) sessionExpired();
            if (!response.ok) throw new Error("HTTP " + response.status);
            renderStatus(await response.json());
          } catch (error) {
            $("status-updated").textContent = "status: " + error.message;
          }
        }
        function follow() {
          const source = new EventSource("/events", { withCredentials: true });
          const connection = $("connection");
          source.onopen = () => { connection.dataset.state = "live"; connection.textContent = "live"; };
          source.onerror = () => { connection.dataset.state = "error"; connection.textContent = "reconnecting…"; };
          source.onmessage = (message) => {
            connection.dataset.state = "live"; connection.textContent = "live";
            try { record(JSON.parse(message.data)); } catch (error) { /* a record this page does not know */ }
          };
        }
        poll(); setInterval(poll, 2000);
        drawChart(); setInterval(drawChart, 1000);
        loadHistory(); setInterval(loadHistory, 10000);
        follow();
        """
}
