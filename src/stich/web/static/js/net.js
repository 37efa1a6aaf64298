// @ts-check
/**
 * The table's connection: one WebSocket to /ws/tables/{id}, numbered events, and a
 * reconnect that asks for what was missed (`since` = the last event number seen).
 * Events are applied once each, in order: an event already seen is dropped, a gap asks
 * the server again (`sync`).  The server is the authority; this module only keeps the
 * last message of each kind it needs for drawing.
 *
 * The status tells the truth: a ping every 10 s must be answered within 5 s, and the
 * browser's `offline` says the same at once, else the connection is "in doubt"; a socket
 * that stays silent (or hangs in CLOSING, as one does on a dead network) is given up and
 * a new one opened.  A tapped action is kept while the connection is in doubt and sent
 * when it is back, with the event number the person saw: the server refuses it when the
 * game went on meanwhile, and the refusal is shown (`pending` in the error).
 */

/**
 * @typedef {{type: "welcome", table: any, you: number|null, seq: number, creator?: boolean, timer?: TimerMsg|null, chat?: any[]}} Welcome
 * @typedef {{type: "event", seq: number, kind: string, seat: number|null, data: any, view: any}} EventMsg
 * @typedef {{type: "snapshot", seq: number, table: any, view: any, list: any, sheet: any, chat?: any[], timer?: TimerMsg|null}} Snapshot
 * @typedef {{type: "error", code: string, text: string, seq: number|null, pending?: string}} ErrorMsg
 * @typedef {{type: "timer", kind: "move"|"next"|null, seat: number|null, left: number, total: number, bank: number}} TimerMsg
 * @typedef {{type: "service", ok: boolean}} ServiceMsg
 * @typedef {"connecting"|"open"|"doubt"|"closed"|"gone"} Status
 * @typedef {{action: string, seq: number, sent: boolean, held: boolean, wasSent?: boolean,
 *   recheck?: ErrorMsg|null, retried?: boolean}} Pending
 * @typedef {{
 *   onWelcome?: (m: Welcome) => void,
 *   onEvent?: (m: EventMsg) => void,
 *   onSnapshot?: (m: Snapshot) => void,
 *   onError?: (m: ErrorMsg) => void,
 *   onTimer?: (m: TimerMsg) => void,
 *   onService?: (m: ServiceMsg) => void,
 *   onStatus?: (s: Status) => void,
 *   onPending?: (p: Pending|null) => void,
 *   onMessage?: (m: any) => void,
 * }} Handlers
 * onMessage: any other message (not numbered), e.g. the `timer` (after onTimer)
 * onService: whether the site can save moves now (`ok` false: its database does not
 * answer, a move is refused with `server.not_saved`; sent when that changes, and after
 * the welcome while it cannot)
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
    /** @type {Status} */
    this.status = "connecting";
    /** ms: a ping every `ping`, an answer within `answer`, a silent socket given up
     * after `giveUp` (the tests shorten them) */
    this.timing = { ping: 10000, answer: 5000, giveUp: 15000 };
    /** @type {number|undefined} */
    this.timer = undefined;
    /** @type {number|undefined} */
    this.heartbeat = undefined;
    /** @type {number|undefined} */
    this.watch = undefined;
    this.lastHeard = Date.now();
    /** when the socket now in use was opened */
    this.openedAt = 0;
    /** when the last ping went out unanswered (0: none waiting) */
    this.pingAt = 0;
    /** the seat of this connection (from the welcome) */
    /** @type {number|null} */
    this.you = null;
    /** the action tapped and not yet answered */
    /** @type {Pending|null} */
    this.pending = null;
    /** after a reconnect: send the pending action once the events up to here are in */
    /** @type {number|null} */
    this.flushAt = null;
    /** the number of this seat's last `act` event (a kept action made already) */
    this.lastOwnAct = -1;
    /** the kinds of the recent events by number (what happened since a kept action) */
    /** @type {Map<number, string>} */
    this.kinds = new Map();
    /** whether this socket got its welcome (before it, nothing is sent) */
    this.welcomed = false;
    /** what was applied, in order: event numbers, and "s<seq>" for a snapshot (for tests
     * and for the curious: nothing is applied twice or skipped) */
    /** @type {(number|string)[]} */
    this.applied = [];
    /** when the browser last said it went offline */
    this.offlineAt = 0;
    this.onOffline = () => { this.offlineAt = Date.now(); this.doubt(); };
    this.onOnline = () => {
      if (this.status === "open") { this.ping(); return; }
      this.tries = 0; // the network is back: at once, not after the last wait
      this.renew();
    };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
  }

  /** @param {Status} s */
  setStatus(s) {
    if (this.status === s) return;
    this.status = s;
    this.h.onStatus?.(s);
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
    this.welcomed = false;
    this.pingAt = 0;
    if (this.pending) { this.pending.sent = false; this.pending.held = true; }
    this.setStatus(navigator.onLine === false ? "doubt" : "connecting");
    clearInterval(this.heartbeat);
    clearInterval(this.watch);
    this.openedAt = Date.now();
    // a socket that never opens (a dead route) or goes silent (a sleeping phone) is replaced
    this.watch = window.setInterval(() => this.check(), 500);
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.tries = 0;
      this.lastHeard = Date.now();
      this.heartbeat = window.setInterval(() => this.ping(), this.timing.ping);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // a socket given up: whatever it still says is stale
      let msg = null;
      try { msg = JSON.parse(e.data); } catch { /* heard all the same */ }
      if (msg) this.receive(msg);
      this.heard(); // after it: a kept action goes out knowing what this message said
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.heartbeat);
      clearInterval(this.watch);
      if (e.code === 4404) {
        this.stopped = true;
        this.setStatus("gone");
        this.refusePending();
        return;
      }
      this.setStatus("closed");
      this.retry();
    };
  }

  /** Something came: the connection works. */
  heard() {
    this.lastHeard = Date.now();
    this.pingAt = 0;
    if (this.welcomed && this.status !== "open" && this.trusted()) {
      this.setStatus("open");
      this.flush();
    }
  }

  /**
   * Whether what the socket says can be believed: the browser does not say it is offline,
   * or it said so a while ago and messages come all the same (a browser wrong about it).
   */
  trusted() {
    return navigator.onLine !== false || Date.now() - this.offlineAt > 3000;
  }

  ping() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (!this.pingAt) this.pingAt = Date.now();
    ws.send(JSON.stringify({ type: "ping" }));
  }

  /** Every half second: an unanswered ping, or a socket that went quiet, is doubt. */
  check() {
    const ws = this.ws;
    const now = Date.now();
    if (!ws) return;
    if (ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED) { this.renew(); return; }
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.openedAt > this.timing.giveUp) this.renew();
      return;
    }
    const waiting = this.pingAt ? now - this.pingAt : 0;
    if (waiting > this.timing.answer) this.doubt();
    if (waiting > this.timing.giveUp || now - this.lastHeard > this.timing.ping * 2.5) this.renew();
  }

  /** The connection is in doubt: say so, and ask the server at once. */
  doubt() {
    if (this.stopped) return;
    if (this.status !== "open" && this.status !== "connecting") return;
    this.setStatus("doubt");
    this.ping();
  }

  /** Give the socket up (a socket stuck in CLOSING never says "closed") and open a new one. */
  renew() {
    if (this.stopped) return;
    const old = this.ws;
    this.ws = null;
    clearInterval(this.heartbeat);
    clearInterval(this.watch);
    if (old) { try { old.close(); } catch { /* closing already */ } }
    this.setStatus(navigator.onLine === false ? "doubt" : "closed");
    this.retry(this.tries === 0 ? 0 : undefined);
  }

  /** @param {number} [wait] */
  retry(wait) {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const ms = wait ?? Math.min(8000, 300 * 2 ** this.tries) * (0.75 + Math.random() / 2);
    this.tries += 1;
    this.timer = window.setTimeout(() => this.open(), ms);
  }

  /** @param {any} msg */
  receive(msg) {
    if (msg.type === "event" && msg.timer) {
      // the timer that started or stopped with the event rides in its frame: the event
      // first, then the timer as the message after it (also when the event is old)
      const { timer, ...event } = msg;
      this.receive(event);
      this.receive({ ...timer, type: "timer" });
      return;
    }
    switch (msg.type) {
      case "welcome":
        this.you = msg.you ?? null;
        this.welcomed = true;
        if (this.trusted()) this.setStatus("open");
        this.h.onWelcome?.(msg);
        if (msg.timer !== undefined) this.h.onTimer?.(msg.timer || { type: "timer", kind: null, seat: null, left: 0, total: 0, bank: 0 });
        if (this.pending) {
          // send it once what happened meanwhile is in (it may have been made already)
          if (typeof msg.seq === "number" && msg.seq > this.seq && this.seq >= 0) this.flushAt = msg.seq;
          else this.flush();
        }
        break;
      case "snapshot":
        this.seq = msg.seq;
        this.applied.push(`s${msg.seq}`);
        this.h.onSnapshot?.(msg);
        if (this.flushAt !== null) { this.flushAt = null; this.flush(); }
        break;
      case "event":
        if (msg.seq <= this.seq) return; // seen already
        if (this.seq >= 0 && msg.seq !== this.seq + 1) { this.sync(); return; } // a gap
        this.seq = msg.seq;
        this.applied.push(msg.seq);
        this.kinds.set(msg.seq, msg.kind);
        if (this.kinds.size > 300) this.kinds.delete(/** @type {number} */ (this.kinds.keys().next().value));
        if (msg.kind === "act" && msg.seat !== null && msg.seat === this.you) {
          this.lastOwnAct = msg.seq;
          // the answer to the action sent; one kept and never sent goes out still (with
          // the number it saw), and the server's refusal is shown
          if (this.pending?.wasSent) this.settle();
        }
        this.h.onEvent?.(msg);
        if (this.flushAt !== null && this.seq >= this.flushAt) { this.flushAt = null; this.flush(); }
        break;
      case "error":
        if (this.pending?.sent) {
          const p = this.pending;
          if (msg.code === "server.stale" && p.held && !p.retried) {
            // what happened meanwhile may not touch the game (somebody went away and came
            // back, a chat line): then the kept action still stands; look once caught up
            p.retried = true;
            p.sent = false;
            p.recheck = msg;
            if (typeof msg.seq === "number" && msg.seq > this.seq) this.flushAt = msg.seq;
            else this.flush();
            return;
          }
          this.settle();
          if (p.held) msg = { ...msg, pending: p.action };
        }
        this.h.onError?.(msg);
        break;
      case "timer":
        this.h.onTimer?.(msg);
        this.h.onMessage?.(msg);
        break;
      case "service":
        this.h.onService?.(msg);
        break;
      case "pong": // heard: nothing to draw
        break;
      default:
        this.h.onMessage?.(msg);
        break;
    }
  }

  /** The pending action got its answer. */
  settle() {
    this.pending = null;
    this.h.onPending?.(null);
  }

  /** A kept action that can never be sent (the table is gone): say so. */
  refusePending() {
    const p = this.pending;
    if (!p) return;
    this.settle();
    this.h.onError?.({ type: "error", code: "client.not_sent", text: "", seq: null, pending: p.action });
  }

  /** Ask again for everything after the last event applied. */
  sync() {
    this.send({ type: "sync", since: Math.max(0, this.seq) });
  }

  /** Whether a message sent now is likely to arrive. */
  usable() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed && this.status === "open";
  }

  /**
   * Play an action (the engine's text) with the event number the person saw.  While the
   * connection is in doubt it is kept and sent when the connection is back.
   * @param {string} action
   */
  act(action) {
    this.pending = { action, seq: Math.max(0, this.seq), sent: false, held: false };
    if (!this.usable()) this.pending.held = true;
    this.flush();
    this.h.onPending?.(this.pending);
  }

  /** Send the kept action, if the connection allows. */
  flush() {
    const p = this.pending;
    if (!p || p.sent || !this.usable() || this.flushAt !== null) return;
    if (p.recheck) {
      const refusal = p.recheck;
      p.recheck = null;
      if (!this.untouchedSince(p.seq)) {
        this.settle();
        this.h.onError?.({ ...refusal, pending: p.action });
        return;
      }
      p.seq = this.seq;
    } else if (p.wasSent && this.seq > p.seq && this.madeSince(p.seq)) {
      this.settle(); // sent before the connection dropped, and made: its answer was lost
      return;
    } else if (p.held && this.seq > p.seq && this.untouchedSince(p.seq)) {
      p.seq = this.seq; // only presence or chat since: the choice still stands
    }
    p.sent = true;
    p.wasSent = true;
    this.ws?.send(JSON.stringify({ type: "act", seq: p.seq, action: p.action }));
  }

  /**
   * Whether only events that leave the game as it was came after event `seq` (presence,
   * chat, "ready"): then an action chosen at `seq` still means the same.
   * @param {number} seq
   */
  untouchedSince(seq) {
    const harmless = new Set(["away", "back", "standin", "chat", "ready", "pause", "resume"]);
    for (let n = seq + 1; n <= this.seq; n++) {
      const k = this.kinds.get(n);
      if (k === undefined || !harmless.has(k)) return false;
    }
    return true;
  }

  /** Whether this seat acted after event `seq` (then a kept action was made already). @param {number} seq */
  madeSince(seq) {
    return this.lastOwnAct > seq;
  }

  /**
   * Send a message that is not an action; false when the connection is not there (the
   * caller says so: nothing is sent later).
   * @param {object} msg
   */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(msg)); return true; }
    return false;
  }

  /** A chat line. @param {string} text */
  chat(text) { return this.usable() && this.send({ type: "chat", text }); }

  /** Drop the socket and connect again (as after a network failure). */
  reconnect() {
    this.ws?.close();
  }

  close() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearInterval(this.watch);
    clearTimeout(this.timer);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.ws?.close();
  }
}
