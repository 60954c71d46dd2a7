// One table (#table=ID): its seats and join link, joining (JoinTable, the credential kept
// in sessionStorage), starting (StartTable), and play: GetView for what the seat (or a
// spectator, without a credential) may see, WatchTable for what happens, SubmitAction for
// a move. When the stream breaks the page subscribes again from the last event it saw.
import { Code } from "@connectrpc/connect";
import { type ActionInit, type Board, drawBoard, seatName } from "./board";
import { play, refusal, requestId, seatHeaders, tables } from "./api";
import { button, h, replace } from "./dom";
import { eventLine } from "./events";
import { t } from "./i18n";
import { statusText } from "./lobby";
import { title } from "./names";
import { forgetSeat, type HeldSeat, heldSeat, keepSeat, saveName, savedName } from "./seats";
import {
  type Event,
  type SeatView,
  type Table,
  TableStatus,
} from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

const LOG_LINES = 60;
/** How long the seat that picked a trick up stays marked. */
const PICKER_MS = 2500;
const RETRY_FIRST_MS = 300;
const RETRY_MOST_MS = 8000;
/** Refusals a new subscription would get again: stop, and say why. */
const FINAL = new Set([Code.NotFound, Code.Unauthenticated, Code.PermissionDenied, Code.InvalidArgument]);
/** Events after which the table itself (seats, status) is fetched again. */
const TABLE_EVENTS = new Set(["playerJoined", "playerLeft", "handStarted", "handOver", "sessionOver", "tableClosed"]);

/** What names a focusable element across redraws: its card, its action, or its id. */
function focusKey(element: Element | null): string | null {
  if (!(element instanceof HTMLElement)) return null;
  const key = element.dataset.card ?? element.dataset.action ?? element.id;
  return key ? `${element.tagName}:${key}` : null;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

class TablePage implements View {
  private table: Table | null = null;
  private view: SeatView | null = null;
  private viewSeq = -1n;
  private lastSeq = 0n;
  private held: HeldSeat | null;
  private log: string[] = [];
  private message = "";
  /** The stream broke and is being subscribed again. */
  private reconnecting = false;
  /** A view could not be fetched (no answer from the referee) and is asked for again. */
  private unanswered = false;
  private closed = false;
  private watching: AbortController | null = null;
  private refreshQueued = false;
  /** When the seat the game waits for runs out of time (Date.now() ms); null: no clock. */
  private deadline: number | null = null;
  private ticker = 0;
  /** A SubmitAction is on its way. */
  private acting = false;
  private picker: number | null = null;
  private pickerTimer: number | undefined = undefined;
  private tableStale = true;

  constructor(
    private readonly root: HTMLElement,
    private readonly tableId: string,
  ) {
    this.held = heldSeat(tableId);
  }

  async start(): Promise<void> {
    replace(this.root, t("loading"));
    try {
      await this.refresh();
    } catch (error) {
      const why = refusal(error);
      if (why.reason !== "") {
        replace(this.root, h("p", { class: "message", role: "alert" }, t("failed", { message: why.message })));
        return;
      }
      // No answer yet (the referee starting, the network down): ask again until it answers.
      replace(this.root, h("p", { class: "reconnecting", role: "status" }, t("reconnecting")));
      await this.untilAnswered(() => this.closed);
      if (this.closed) return;
    }
    // From the event before the view's: that event again carries the turn clock's time.
    this.lastSeq = this.viewSeq > 0n ? this.viewSeq - 1n : (this.table?.lastSeq ?? 0n);
    this.watch();
    this.ticker = window.setInterval(() => this.tick(), 1000);
  }

  close(): void {
    this.closed = true;
    this.watching?.abort();
    window.clearInterval(this.ticker);
  }

  /** The turn clock's time left, `m:ss`, or "" without a clock. */
  private clockText(): string {
    if (this.deadline === null || this.view === null || this.view.result) return "";
    const seconds = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  private tick(): void {
    const clock = this.root.querySelector("#clock");
    if (clock !== null) clock.textContent = this.clockText();
  }

  private token(): string | undefined {
    return this.held?.token;
  }

  /** Fetches the table (when an event changed it) and the view, then draws. */
  private async refresh(): Promise<void> {
    if (this.tableStale || this.table === null) {
      const got = await tables.getTable({ tableId: this.tableId });
      if (got.table) this.table = got.table;
      this.tableStale = false;
    }
    if (this.table !== null && this.table.status !== TableStatus.OPEN) {
      try {
        const got = await play.getView({ tableId: this.tableId }, seatHeaders(this.token()));
        if (got.seq >= this.viewSeq) {
          this.viewSeq = got.seq;
          this.view = got.view ?? null;
        }
      } catch (error) {
        const why = refusal(error);
        if (why.reason === "") throw error; // no refusal: the referee did not answer
        if (why.reason === "unauthenticated" || why.reason === "bad_credential") this.loseSeat();
        else if (why.reason !== "table_not_playing") this.message = t("failed", { message: why.message });
      }
    }
    this.unanswered = false;
    this.draw();
  }

  private scheduleRefresh(): void {
    if (this.refreshQueued || this.closed) return;
    this.refreshQueued = true;
    setTimeout(() => {
      this.refreshQueued = false;
      this.refresh().catch((error: unknown) => {
        if (refusal(error).reason !== "") {
          this.message = t("failed", { message: refusal(error).message });
        } else {
          // No answer (the connection dropped, the referee restarting): ask again soon.
          this.unanswered = true;
          setTimeout(() => this.scheduleRefresh(), RETRY_MOST_MS / 4);
        }
        this.draw();
      });
    }, 0);
  }

  private loseSeat(): void {
    forgetSeat(this.tableId);
    this.held = null;
  }

  /** WatchTable from the last event seen, until the stream ends. When it breaks, the page
   * says so and asks the referee again (GetTable, GetView), waiting longer each time, until
   * it answers; then it subscribes again from the last event seen. (A subscription is not
   * answered before its first event, so the referee's answering is what tells the page
   * that it is back.) */
  private watch(): void {
    this.watching?.abort();
    const control = new AbortController();
    this.watching = control;
    const gone = (): boolean => this.closed || control.signal.aborted;
    const run = async (): Promise<void> => {
      while (!gone()) {
        try {
          const stream = play.watchTable(
            { tableId: this.tableId, afterSeq: this.lastSeq },
            { ...seatHeaders(this.token()), signal: control.signal },
          );
          for await (const item of stream) {
            if (item.item.case === "event") this.onEvent(item.item.value);
          }
          return; // the session is over, or the table closed: every event was sent
        } catch (error) {
          if (gone()) return;
          const why = refusal(error);
          if (FINAL.has(why.code)) {
            this.message = t("failed", { message: why.message });
            this.draw();
            return;
          }
          this.reconnecting = true;
          this.draw();
          await this.untilAnswered(gone);
          this.reconnecting = false;
          this.draw();
        }
      }
    };
    void run();
  }

  /** Waits, longer each time, until the referee answers a GetTable and a GetView. */
  private async untilAnswered(gone: () => boolean): Promise<void> {
    for (let delay = RETRY_FIRST_MS; !gone(); delay = Math.min(delay * 2, RETRY_MOST_MS)) {
      await sleep(delay);
      try {
        this.tableStale = true;
        await this.refresh();
        return;
      } catch {
        // not yet
      }
    }
  }

  private onEvent(event: Event): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    const left = event.timeLeft;
    this.deadline =
      left === undefined ? null : Date.now() + Number(left.seconds) * 1000 + left.nanos / 1e6;
    const line = this.table ? eventLine(event, (seat) => seatName(this.table as Table, seat)) : null;
    if (line !== null) {
      this.log.push(line);
      if (this.log.length > LOG_LINES) this.log.shift();
    }
    if (event.kind.case !== undefined && TABLE_EVENTS.has(event.kind.case)) this.tableStale = true;
    if (event.kind.case === "pickedUp") this.highlightPicker(event.kind.value.seat);
    this.scheduleRefresh();
  }

  /** Marks the seat that picked the trick up for a moment (the log says it too). */
  private highlightPicker(seat: number): void {
    this.picker = seat;
    window.clearTimeout(this.pickerTimer);
    this.pickerTimer = window.setTimeout(() => {
      this.picker = null;
      this.draw();
    }, PICKER_MS);
  }

  private join(name: string): void {
    saveName(name);
    tables
      .joinTable({ tableId: this.tableId, playerName: name })
      .then((joined) => {
        this.held = { seat: joined.seat, token: joined.seatToken };
        keepSeat(this.tableId, this.held);
        if (joined.table) this.table = joined.table;
        this.message = "";
        this.lastSeq = joined.table?.lastSeq ?? this.lastSeq;
        this.draw();
        this.watch(); // the seat's own stream, filtered for it
      })
      .catch((error: unknown) => this.refused(error));
  }

  private leave(): void {
    tables
      .leaveTable({ tableId: this.tableId }, seatHeaders(this.token()))
      .then((left) => {
        this.loseSeat();
        if (left.table) this.table = left.table;
        this.message = "";
        this.draw();
        this.watch(); // a spectator's stream now
      })
      .catch((error: unknown) => this.refused(error));
  }

  private startTable(): void {
    tables
      .startTable({ tableId: this.tableId }, seatHeaders(this.token()))
      .then(() => {
        this.message = "";
        this.tableStale = true;
        this.scheduleRefresh();
      })
      .catch((error: unknown) => this.refused(error));
  }

  private act(action: ActionInit): void {
    if (this.acting) return; // one move at a time: a second click waits for the first's answer
    this.acting = true;
    play
      .submitAction(
        { tableId: this.tableId, action, requestId: requestId(), expectedSeq: this.viewSeq },
        seatHeaders(this.token()),
      )
      .then(() => {
        this.message = "";
        this.scheduleRefresh();
      })
      .catch((error: unknown) => {
        this.refused(error);
        this.scheduleRefresh();
      })
      .finally(() => {
        this.acting = false;
      });
  }

  private refused(error: unknown): void {
    this.message = t("refused", { message: refusal(error).message });
    this.draw();
  }

  private joinLink(): string {
    return `${location.origin}${location.pathname}#table=${encodeURIComponent(this.tableId)}`;
  }

  private seatPanel(table: Table): HTMLElement {
    const taken = table.seats.filter((seat) => seat.taken).length;
    const open = table.status === TableStatus.OPEN;
    const parts: (HTMLElement | null)[] = [];
    if (open) {
      const link = h("input", { type: "text", readonly: true, id: "join-link", value: this.joinLink() });
      link.addEventListener("focus", () => link.select());
      parts.push(h("label", { class: "joinlink" }, t("joinLink"), link));
    }
    if (open && this.held === null && taken < table.seatCount) {
      const name = h("input", { type: "text", id: "player-name", maxlength: 40, value: savedName() });
      const form = h("form", { class: "join" }, h("label", {}, t("yourName"), name), h("button", { type: "submit" }, t("join")));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        this.join(name.value.trim());
      });
      parts.push(form);
    }
    if (open && taken < table.seatCount) {
      parts.push(h("p", {}, t("waitingForPlayers", { n: table.seatCount - taken })));
    }
    if (open && this.held !== null && taken === table.seatCount) {
      parts.push(h("p", {}, button(t("start"), () => this.startTable(), { id: "start" })));
    }
    if (open && this.held !== null) {
      parts.push(h("p", {}, button(t("leave"), () => this.leave(), { id: "leave" })));
    }
    if (this.held === null && !(open && taken < table.seatCount)) {
      parts.push(h("p", { class: "spectator" }, t("watching")));
    }
    return h("div", { class: "panel" }, ...parts);
  }

  /** A link to the replay of every finished hand of the table (public once it is over). */
  private replayLinks(table: Table): HTMLElement | null {
    const over = table.status === TableStatus.FINISHED || Boolean(this.view?.result);
    const finished = over ? table.handsDealt : Math.max(0, table.handsDealt - 1);
    if (finished === 0) return null;
    const link = (hand: number): HTMLElement => {
      const latest = hand === finished - 1 && Boolean(this.view?.result);
      return h(
        "li",
        {},
        h(
          "a",
          { href: `#replay=${encodeURIComponent(this.tableId)}:${hand}`, class: "replay-link", "data-hand": hand },
          latest ? t("replayThis") : t("replayHand", { n: hand + 1 }),
        ),
      );
    };
    return h("ul", { class: "replays", id: "replays" }, ...Array.from({ length: finished }, (_, hand) => link(hand)));
  }

  private draw(): void {
    if (this.closed || this.table === null) return;
    const table = this.table;
    const focused = focusKey(document.activeElement);
    const board: Board = {
      table,
      view: this.view,
      seat: this.held?.seat ?? null,
      clock: this.clockText(),
      act: (action) => this.act(action),
      picker: this.picker,
    };
    replace(
      this.root,
      h("p", {}, h("a", { href: "#" }, t("back"))),
      h(
        "h2",
        {},
        table.ruleset ? title(table.ruleset) : "",
        " — ",
        h("span", { class: "status", "data-status": table.status }, statusText(table.status)),
      ),
      this.reconnecting || this.unanswered ? h("p", { class: "reconnecting", role: "status" }, t("reconnecting")) : null,
      this.seatPanel(table),
      h("p", { class: "message", id: "message", role: "alert" }, this.message),
      drawBoard(board),
      this.replayLinks(table),
      h(
        "section",
        { class: "log" },
        h("h3", {}, t("log")),
        h("ol", { id: "log" }, ...this.log.map((line) => h("li", {}, line))),
      ),
    );
    if (focused !== null) {
      // The same card, action or field keeps the keyboard's focus across a redraw.
      const again = Array.from(this.root.querySelectorAll<HTMLElement>("button, input, select")).find(
        (element) => focusKey(element) === focused,
      );
      if (again && !(again as HTMLButtonElement).disabled) again.focus();
    }
  }
}

export function tablePage(root: HTMLElement, tableId: string): View {
  const page = new TablePage(root, tableId);
  void page.start();
  return page;
}
