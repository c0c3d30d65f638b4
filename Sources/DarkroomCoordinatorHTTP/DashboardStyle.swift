/// The dashboard's style sheet, inlined into the page (`DashboardPage`): the page is one response,
/// with no other file to serve or cache.
enum DashboardStyle {
    static let css = """
        :root { --fg:#1d2330; --muted:#6b7385; --line:#dde1ea; --ok:#2f9e5b; --bad:#d2453d; --accent:#3567d4; --bg:#f6f7fa; }
        * { box-sizing: border-box; }
        body { margin:0; font:14px/1.4 system-ui, sans-serif; color:var(--fg); background:var(--bg); }
        header { display:flex; align-items:center; gap:1rem; padding:.7rem 1.2rem; background:#fff; border-bottom:1px solid var(--line); }
        header h1 { font-size:1.1rem; margin:0; }
        #connection { font-size:.8rem; padding:.15rem .5rem; border-radius:1rem; background:#eee; }
        #connection[data-state=live] { background:#dff3e6; color:var(--ok); }
        #connection[data-state=error] { background:#fbe3e1; color:var(--bad); }
        main { display:grid; grid-template-columns:repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap:1rem; padding:1rem 1.2rem; }
        /* A grid item may shrink below its content's width, so a long message wraps inside its card. */
        main > section { min-width:0; }
        section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:.8rem 1rem; }
        section h2 { font-size:.9rem; text-transform:uppercase; letter-spacing:.05em; color:var(--muted); margin:0 0 .6rem; }
        table { width:100%; border-collapse:collapse; }
        td, th { text-align:left; padding:.25rem .4rem; border-bottom:1px solid var(--line); font-variant-numeric:tabular-nums; }
        th { font-weight:600; color:var(--muted); font-size:.8rem; }
        .totals { display:flex; gap:1.5rem; flex-wrap:wrap; }
        .totals div b { display:block; font-size:1.4rem; }
        .batch { margin:.4rem 0 .7rem; }
        .batch .label { display:flex; justify-content:space-between; font-size:.85rem; }
        .bar { height:10px; background:#e8ebf2; border-radius:5px; overflow:hidden; display:flex; }
        .bar .ok { background:var(--ok); } .bar .bad { background:var(--bad); } .bar .cancelled { background:#9aa1b1; }
        #failures { table-layout:fixed; }
        #failures th:nth-child(1) { width:6.5em; } #failures th:nth-child(2) { width:30%; } #failures th:nth-child(3) { width:22%; }
        #failures td, #failure-codes td { overflow-wrap:anywhere; vertical-align:top; }
        #failures td:first-child { white-space:nowrap; }
        #failure-codes { margin-bottom:.8rem; }
        .state-busy { color:var(--accent); } .state-offline { color:var(--muted); } .state-dead { color:var(--bad); } .state-idle { color:var(--ok); }
        .code { font-family:ui-monospace, monospace; color:var(--bad); }
        .empty { color:var(--muted); font-style:italic; }
        .note { color:var(--muted); font-size:.8rem; margin:.3rem 0 0; }
        .wide { grid-column:1 / -1; }
        .toolbar { margin:0 0 .6rem; display:flex; gap:.5rem; align-items:center; flex-wrap:wrap; }
        button { font:inherit; font-size:.8rem; padding:.1rem .5rem; border:1px solid var(--line); border-radius:4px; background:#fff; cursor:pointer; }
        button:hover { border-color:var(--accent); }
        .batch .actions { display:flex; gap:.3rem; }
        #session { font-size:.8rem; padding:.15rem .5rem; border-radius:1rem; background:#fbe3e1; color:var(--bad); }
        dl.job { display:grid; grid-template-columns:max-content 1fr; gap:.2rem 1rem; margin:0 0 .8rem; }
        dl.job dt { color:var(--muted); } dl.job dd { margin:0; overflow-wrap:anywhere; }
        #job-preview { max-width:100%; max-height:320px; border:1px solid var(--line); background:#eee; }
        svg text { font-size:10px; fill:var(--muted); }
        #chart-throughput-label { fill:#3567d4; } #chart-latency-label { fill:#d48a35; }
        """
}
