/// The dashboard: one self-contained page (no CDN, no build step) served at `GET /`.
///
/// Its chart (inline SVG, `#chart` with `data-history` = the minutes with ended jobs the history
/// held) draws jobs ended per second and p95 latency per minute over the last hour: it opens with
/// `GET /history` (the coordinator's per-minute series, refetched every 10 s) and adds jobs that
/// end in between from `/events` (`EventSource`). Latency is from the start of a job's last attempt
/// to its end, as the batches' p50/p95, and says so under the chart (`#chart-definition`). The page
/// also polls `/status` (`FleetStatus`) every two seconds (totals, queue depth and lag per
/// priority, live workers, batches with progress bars, the latest failures). Every request
/// carries the session cookie that `/?token=…` set. Elements have stable ids and `data-` attributes for tests:
/// `#batches [data-batch]` (with `data-finished`, `data-total` and `data-cancelled`),
/// `#workers [data-worker]` (with `data-state`: `live`, or `dead` with `data-abandoned` for a
/// worker that died holding jobs not yet reclaimed), `#queue [data-priority]`, `#failures [data-code]`,
/// `#failure-codes [data-failure-code]` (with `data-final` and `data-retried`: the chart's hour of
/// failures by code, from the same per-minute series), `#chart`,
/// `#connection` (`data-state` = `live` once events flow), `#status-updated`.
///
/// The drill-down and the actions (`DashboardDrillDownScript`) call the job API's routes the
/// server mounts under `/v1`: `#drill` shows a batch's jobs (`#batch-jobs [data-job]` with
/// `data-state`, `#batch-state`, `#batch-more`) or one job (`#job` with `data-job` and
/// `data-state`, `#job-preview` or `#job-preview-missing`), and `#dead-letters [data-dead-letter]`
/// lists dead letters with retry buttons. `#session` (`data-state="expired"`) asks to log in
/// again once a request answers 401.
///
/// The markup is here; the style, the overview script and the drill-down script are string
/// constants of their own files, inlined so the page stays one response.
enum DashboardPage {
    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Darkroom</title>
        <style>
        \(DashboardStyle.css)
        </style>
        </head>
        <body>
        <header><h1>Darkroom</h1><span id="connection" data-state="connecting">connecting…</span>
        <span id="status-updated" class="empty">no status yet</span>
        <span id="session" role="alert" hidden></span></header>
        <main>
        <section id="overview"><h2>Totals</h2>
        <div class="totals">
        <div>ended, last minute<b id="total-ended">–</b></div><div>ready<b id="total-ready">0</b></div>
        <div>in flight<b id="total-inflight">0</b></div><div>dead letters<b id="total-dead">0</b></div>
        <div>live workers<b id="total-workers">0</b></div></div></section>
        <section><h2>Throughput and latency, last hour</h2>
        <svg id="chart" viewBox="0 0 400 140" width="100%" role="img" aria-label="jobs per second and latency">
        <polyline id="chart-throughput" fill="none" stroke="#3567d4" stroke-width="1.5" points=""/>
        <polyline id="chart-latency" fill="none" stroke="#d48a35" stroke-width="1.5" points=""/>
        <text x="4" y="12" id="chart-throughput-label">jobs/s</text><text x="396" y="12" text-anchor="end" id="chart-latency-label">p95 latency ms</text>
        </svg>
        <p id="chart-definition" class="note">A point per minute. jobs/s: jobs ended (succeeded, failed for good, dead, cancelled). Latency: from the start of
        a job's last attempt to its end, the measure of the batches' p50 and p95 and of <code>darkroom top</code>.</p></section>
        <section><h2>Queue depth</h2><table id="queue"><thead><tr><th>priority</th><th>ready</th><th>lag</th></tr></thead><tbody></tbody></table>
        <p id="queue-extra" class="empty">not polled yet</p></section>
        <section><h2>Workers</h2><table id="workers"><thead><tr><th>worker</th><th>state</th><th>running</th><th>done</th><th>errors</th></tr></thead><tbody></tbody></table></section>
        <section><h2>Batches</h2><div id="batches"><p class="empty">no batch yet</p></div></section>
        <section><h2>Failures by code, last hour</h2>
        <table id="failure-codes"><thead><tr><th>code</th><th>final</th><th>retried</th></tr></thead><tbody></tbody></table>
        <p id="failure-codes-empty" class="empty">no failure in the last hour</p>
        <h2>Latest failures</h2><table id="failures"><thead><tr><th>time</th><th>code</th><th>job</th><th>message</th></tr></thead><tbody></tbody></table></section>
        <section id="drill" class="wide"><h2 id="drill-title">Jobs</h2>
        <p class="toolbar"><a href="#">close</a> <button type="button" id="drill-refresh" data-action="refresh">refresh</button>
        <span id="drill-result" class="note"></span></p>
        <div id="drill-body"><p class="empty">Choose a batch's jobs above, or a job of a dead letter below.</p></div></section>
        <section id="dead-letters-card" class="wide"><h2>Dead letters</h2>
        <p class="toolbar"><button type="button" id="dlq-retry-all" data-action="retry-all">retry all</button>
        <button type="button" id="dlq-purge" data-action="purge">purge all</button> <span id="dlq-result" class="note"></span></p>
        <table id="dead-letters"><thead><tr><th>time</th><th>job</th><th>batch</th><th>code</th><th>message</th><th></th></tr></thead><tbody></tbody></table>
        <p id="dead-letters-empty" class="empty">no dead letter</p></section>
        </main>
        <script>
        \(DashboardStatusScript.javascript)
        \(DashboardDrillDownScript.javascript)
        </script>
        </body>
        </html>
        """
}
