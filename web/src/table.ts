// One table (#table=ID): its seats and join link, joining (JoinTable, the credential kept
// in sessionStorage), starting (StartTable), and play: GetView for what the seat (or a
// spectator, without a credential) may see, WatchTable for what happens, SubmitAction for
// a move. When the stream breaks, or the tab comes back to the screen or the network, the
// page subscribes again from the last event it saw.
import { durationMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { failedText, noAnswer, play, refusal, refusedText, requestId, seatHeaders, tables } from "./api";
import { type ActionInit, type Board, drawBoard } from "./board";
import { h, replace } from "./dom";
import { eventLine } from "./events";
import { t } from "./i18n";
import { say } from "./lines";
import { seatName, statusText, title } from "./names";
import { replayLinks, seatPanel } from "./panel";
import { backLink } from "./routes";
import {
  forgetSeat,
  type HeldSeat,
  heldSeat,
  keepLog,
  keepSeat,
  keptLog,
  type LoggedLine,
  saveName,
} from "./seats";
import { type Event, type SeatView, type Table, TableStatus } from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

const LOG_LINES = 60;
/** How long the seat that picked a trick up stays marked. */
const PICKER_MS = 2500;
const RETRY_FIRST_MS = 300;
const RETRY_MOST_MS = 8000;
/** Refusals a new subscription would get again: stop, and say why. */
const FINAL = new Set([Code.NotFound, Code.PermissionDenied, Code.InvalidArgument]);
/** Refusals of a seat's credential: the tab forgets the seat and watches as a spectator. */
const BAD_CREDENTIAL = new Set(["unauthenticated", "bad_credential"]);
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
  /** Counts the credentials this page has held: an answer to a call made under another
   * one (before a join or a leave) is not this seat's and is dropped. */
  private identity = 0;
  private log: LoggedLine[];
  private message = "";
  /** The referee does not answer (the stream broke, or a view could not be fetched). */
  private unanswered = false;
  private closed = false;
  private watching: AbortController | null = null;
  /** A refresh is on its way; `refreshAgain`: an event came meanwhile, refresh once more. */
  private refreshing = false;
  private refreshAgain = false;
  /** When the seat the game waits for runs out of time (Date.now() ms); null: no clock. */
  private deadline: number | null = null;
  private ticker = 0;
  /** A SubmitAction is on its way. */
  private acting = false;
  private picker: number | null = null;
  private pickerTimer: number | undefined = undefined;
  private tableStale = true;
  private readonly onWake = (): void => {
    if (document.visibilityState !== "visible" || this.closed) return;
    // Back on the screen or the network: a stream may have died without a word.
    this.watch();
    this.scheduleRefresh();
  };

  constructor(
    private readonly root: HTMLElement,
    private readonly tableId: string,
  ) {
    this.held = heldSeat(tableId);
    this.log = keptLog(tableId);
  }

  async start(): Promise<void> {
    replace(this.root, t("loading"));
    try {
      await this.refresh();
    } catch (error) {
      if (!noAnswer(error)) {
        replace(this.root, backLink(), h("p", { class: "message", role: "alert" }, failedText(error)));
        return;
      }
      // No answer yet (the referee starting, the network down): ask again until it answers.
      replace(this.root, h("p", { class: "reconnecting", role: "status" }, t("reconnecting")));
      if (!(await this.untilAnswered(() => this.closed))) {
        if (!this.closed) replace(this.root, backLink(), h("p", { class: "message", role: "alert" }, this.message));
        return;
      }
    }
    // From the event before the view's: that event again carries the turn clock's time.
    this.lastSeq = this.viewSeq > 0n ? this.viewSeq - 1n : (this.table?.lastSeq ?? 0n);
    this.watch();
    this.ticker = window.setInterval(() => this.tick(), 250);
    document.addEventListener("visibilitychange", this.onWake);
    window.addEventListener("online", this.onWake);
  }

  close(): void {
    this.closed = true;
    this.watching?.abort();
    window.clearInterval(this.ticker);
    window.clearTimeout(this.pickerTimer);
    document.removeEventListener("visibilitychange", this.onWake);
    window.removeEventListener("online", this.onWake);
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

  /** The seat this page plays, as the referee last showed it (else as the tab keeps it). */
  private seat(): number | null {
    if (this.view !== null && this.view.seat >= 0) return this.view.seat;
    return this.held?.seat ?? null;
  }

  /** Takes a table the referee sent, unless the page already has a later one. */
  private takeTable(table: Table | undefined): void {
    if (table && (this.table === null || table.lastSeq >= this.table.lastSeq)) this.table = table;
  }

  /** Fetches the table (when an event changed it) and the view, then draws. Throws when
   * the referee does not answer. */
  private async refresh(): Promise<void> {
    if (this.tableStale || this.table === null) {
      this.tableStale = false;
      try {
        this.takeTable((await tables.getTable({ tableId: this.tableId })).table);
      } catch (error) {
        this.tableStale = true;
        throw error;
      }
    }
    if (this.table !== null && this.table.status !== TableStatus.OPEN) {
      const identity = this.identity;
      try {
        const got = await play.getView({ tableId: this.tableId }, seatHeaders(this.token()));
        if (identity === this.identity && got.seq >= this.viewSeq) {
          this.viewSeq = got.seq;
          this.view = got.view ?? null;
        }
      } catch (error) {
        if (noAnswer(error)) throw error;
        const why = refusal(error);
        if (BAD_CREDENTIAL.has(why.reason)) {
          this.loseSeat();
          this.refreshAgain = true; // the view a spectator may see
        } else if (why.reason !== "table_not_playing") this.message = failedText(error);
      }
    }
    this.unanswered = false;
    this.draw();
  }

  /** Refreshes soon: one refresh at a time, and once more if events came meanwhile. */
  private scheduleRefresh(): void {
    if (this.closed) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    const run = async (): Promise<void> => {
      do {
        this.refreshAgain = false;
        try {
          await this.refresh();
        } catch (error) {
          if (!noAnswer(error)) this.message = failedText(error);
          else {
            // No answer (the connection dropped, the referee restarting): ask again soon.
            this.unanswered = true;
            setTimeout(() => this.scheduleRefresh(), RETRY_MOST_MS / 4);
          }
          this.draw();
          return;
        }
      } while (this.refreshAgain && !this.closed);
    };
    void run().finally(() => {
      this.refreshing = false;
    });
  }

  /** Forgets the seat's credential and what was seen under it. */
  private loseSeat(): void {
    this.changeIdentity(null);
  }

  /** Holds `held` from now on (kept for the tab; null: forgotten), and drops what was seen
   * under the credential before. */
  private changeIdentity(held: HeldSeat | null): void {
    if (held === null) forgetSeat(this.tableId);
    else keepSeat(this.tableId, held);
    this.held = held;
    this.identity += 1;
    this.view = null;
    this.viewSeq = -1n;
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
            if (item.item.case === "event") this.take(item.item.value);
          }
          return; // the session is over, or the table closed: every event was sent
        } catch (error) {
          if (gone()) return;
          const why = refusal(error);
          if (BAD_CREDENTIAL.has(why.reason)) {
            this.loseSeat(); // watch on as a spectator
            this.scheduleRefresh();
            continue;
          }
          if (FINAL.has(why.code)) {
            this.message = failedText(error);
            this.draw();
            return;
          }
          this.unanswered = true;
          this.draw();
          if (!(await this.untilAnswered(gone))) return;
        }
      }
    };
    void run();
  }

  /** Waits, longer each time, until the referee answers a GetTable and a GetView; false
   * when the page left first or the referee refused (the refusal is shown). */
  private async untilAnswered(gone: () => boolean): Promise<boolean> {
    for (let delay = RETRY_FIRST_MS; !gone(); delay = Math.min(delay * 2, RETRY_MOST_MS)) {
      await sleep(delay);
      try {
        this.tableStale = true;
        await this.refresh();
        return true;
      } catch (error) {
        if (!noAnswer(error)) {
          this.message = failedText(error);
          this.draw();
          return false;
        }
      }
    }
    return false;
  }

  /** An event of the stream; a fault of the page's own in it is reported, not taken for
   * a broken stream. */
  private take(event: Event): void {
    try {
      this.onEvent(event);
    } catch (error) {
      console.error("the page could not show an event", event.seq, error);
    }
  }

  private onEvent(event: Event): void {
    if (event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    const left = event.timeLeft;
    this.deadline = left === undefined ? null : Date.now() + durationMs(left);
    // After a reload the stream sends the last event seen again: it is in the log already.
    const fresh = this.log.length === 0 || event.seq > BigInt(this.log[this.log.length - 1].seq);
    const line = eventLine(event);
    if (line !== null && fresh) {
      this.log.push({ seq: String(event.seq), line });
      if (this.log.length > LOG_LINES) this.log.shift();
      keepLog(this.tableId, this.log);
    }
    if (event.kind.case !== undefined && TABLE_EVENTS.has(event.kind.case)) this.tableStale = true;
    if (event.kind.case === "pickedUp" && fresh) this.highlightPicker(event.kind.value.seat);
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
    if (name === "") {
      this.message = t("nameNeeded");
      this.draw();
      return;
    }
    saveName(name);
    tables
      .joinTable({ tableId: this.tableId, playerName: name })
      .then((joined) => {
        this.changeIdentity({ seat: joined.seat, token: joined.seatToken });
        this.takeTable(joined.table);
        this.message = "";
        // From the event before the join's: the log tells this seat's own arrival too.
        const seen = (joined.table?.lastSeq ?? 0n) - 1n;
        if (seen > this.lastSeq) this.lastSeq = seen;
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
        this.takeTable(left.table);
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

  /** A refusal in words; one that names a seat by number names it as the page does. */
  private refused(error: unknown): void {
    const why = refusal(error);
    const turn = Number(why.details.turn ?? -1);
    this.message =
      why.reason === "not_your_turn" && this.table !== null && Number.isInteger(turn) && turn >= 0
        ? t("refused", { message: t("refusedNotYourTurn", { name: seatName(this.table.seats, turn) }) })
        : refusedText(error);
    this.draw();
  }

  private draw(): void {
    if (this.closed || this.table === null) return;
    const table = this.table;
    const focused = focusKey(document.activeElement);
    const board: Board = {
      table,
      view: this.view,
      seat: this.seat(),
      clock: this.clockText(),
      act: (action) => this.act(action),
      picker: this.picker,
    };
    const named = (seat: number, joinedAs?: string): string => seatName(table.seats, seat, joinedAs);
    const log = h("ol", { id: "log" }, ...this.log.map((entry) => h("li", {}, say([entry.line], named))));
    replace(
      this.root,
      backLink(),
      h(
        "h2",
        {},
        table.ruleset ? title(table.ruleset) : "",
        " — ",
        h("span", { class: "status", "data-status": table.status }, statusText(table.status)),
      ),
      this.unanswered ? h("p", { class: "reconnecting", role: "status" }, t("reconnecting")) : null,
      seatPanel(table, {
        seated: this.held !== null,
        typed: this.root.querySelector<HTMLInputElement>("#player-name")?.value,
        join: (name) => this.join(name),
        leave: () => this.leave(),
        start: () => this.startTable(),
      }),
      h("p", { class: "message", id: "message", role: "alert" }, this.message),
      drawBoard(board),
      replayLinks(table, this.view),
      h("section", { class: "log" }, h("h3", {}, t("log")), log),
    );
    log.scrollTop = log.scrollHeight; // the newest line in sight
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
