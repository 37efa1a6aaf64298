// @ts-check
/**
 * The table's connection: one WebSocket to /ws/tables/{id}, numbered events, and a
 * reconnect that asks for what was missed (`since` = the last event number seen).
 * Events are applied once each, in order: an event already seen is dropped, a gap asks
 * the server again (`sync`).  The server is the authority; this module only keeps the
 * last message of each kind it needs for drawing.
 */

/**
 * @typedef {{type: "welcome", table: any, you: number|null, seq: number}} Welcome
 * @typedef {{type: "event", seq: number, kind: string, seat: number|null, data: any, view: any}} EventMsg
 * @typedef {{type: "snapshot", seq: number, table: any, view: any, list: any, sheet: any}} Snapshot
 * @typedef {{type: "error", code: string, text: string, seq: number|null}} ErrorMsg
 * @typedef {{
 *   onWelcome?: (m: Welcome) => void,
 *   onEvent?: (m: EventMsg) => void,
 *   onSnapshot?: (m: Snapshot) => void,
 *   onError?: (m: ErrorMsg) => void,
 *   onStatus?: (s: "connecting"|"open"|"closed"|"gone") => void,
 * }} Handlers
 */

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {{lang: string, invite?: string}} opts
   * @param {Handlers} handlers
   */
  constructor(tableId, opts, handlers) {
    this.tableId = tableId;
    this.opts = opts;
    this.h = handlers;
    /** the number of the last event applied (-1: nothing yet) */
    this.seq = -1;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.tries = 0;
    this.stopped = false;
    /** @type {number|undefined} */
    this.timer = undefined;
    /** @type {number|undefined} */
    this.heartbeat = undefined;
    this.lastHeard = Date.now();
    /** what was applied, in order: event numbers, and "s<seq>" for a snapshot (for tests
     * and for the curious: nothing is applied twice or skipped) */
    /** @type {(number|string)[]} */
    this.applied = [];
  }

  /** Open the socket (again), asking for what came after the last event seen. */
  open() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams({ lang: this.opts.lang });
    if (this.seq >= 0) q.set("since", String(this.seq));
    if (this.opts.invite) q.set("invite", this.opts.invite);
    q.set("style", localStorage.getItem("stich.style") || "german"); // card names in refusals
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}?${q}`);
    this.ws = ws;
    this.h.onStatus?.("connecting");
    ws.onopen = () => {
      this.tries = 0;
      this.lastHeard = Date.now();
      this.h.onStatus?.("open");
      clearInterval(this.heartbeat);
      // a connection that went silent (a sleeping phone, a dead route) is replaced
      this.heartbeat = window.setInterval(() => this.beat(), 10000);
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.receive(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.heartbeat);
      if (e.code === 4404) { this.stopped = true; this.h.onStatus?.("gone"); return; }
      this.h.onStatus?.("closed");
      this.retry();
    };
  }

  beat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastHeard > 25000) { ws.close(); return; }
    ws.send(JSON.stringify({ type: "ping" }));
  }

  retry() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const wait = Math.min(8000, 300 * 2 ** this.tries) * (0.75 + Math.random() / 2);
    this.tries += 1;
    this.timer = window.setTimeout(() => this.open(), wait);
  }

  /** @param {any} msg */
  receive(msg) {
    switch (msg.type) {
      case "welcome":
        this.h.onWelcome?.(msg);
        break;
      case "snapshot":
        this.seq = msg.seq;
        this.applied.push(`s${msg.seq}`);
        this.h.onSnapshot?.(msg);
        break;
      case "event":
        if (msg.seq <= this.seq) return; // seen already
        if (this.seq >= 0 && msg.seq !== this.seq + 1) { this.sync(); return; } // a gap
        this.seq = msg.seq;
        this.applied.push(msg.seq);
        this.h.onEvent?.(msg);
        break;
      case "error":
        this.h.onError?.(msg);
        break;
      default:
        break;
    }
  }

  /** Ask again for everything after the last event applied. */
  sync() {
    this.send({ type: "sync", since: Math.max(0, this.seq) });
  }

  /** @param {string} action  the engine's action text */
  act(action) {
    this.send({ type: "act", seq: Math.max(0, this.seq), action });
  }

  /** @param {object} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Drop the socket and connect again (as after a network failure). */
  reconnect() {
    this.ws?.close();
  }

  close() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
