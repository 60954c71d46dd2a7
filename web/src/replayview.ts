// The replay of a finished hand (#replay=TABLE_ID:HAND, HAND 0-based), open to anyone once
// the hand is over: ExportHand's case read from YAML, the fair-deal check done here in the
// browser (fairdeal.ts), and the hand step by step (replay.ts) with first / previous /
// next / last buttons and the arrow keys, the seats named as the table names them.
import { parse } from "yaml";
import { failedText, play, refusal, tables } from "./api";
import { cardFace, sortCards } from "./cards";
import { button, h, replace } from "./dom";
import { checkDeal, type DealCheck } from "./fairdeal";
import { type Published, publishedDeal } from "./published";
import { t } from "./i18n";
import { seatName, title } from "./names";
import { say } from "./lines";
import { backLink, tableHref } from "./routes";
import { type Played, type Replay, type ReplayState, replayOf } from "./replay";
import { PlayDirection, type Table } from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

/** The proto's play directions as the export writes them. */
const DIRECTIONS: Partial<Record<PlayDirection, string>> = {
  [PlayDirection.CLOCKWISE]: "clockwise",
  [PlayDirection.COUNTERCLOCKWISE]: "counterclockwise",
};

class ReplayPage implements View {
  private table: Table | null = null;
  private replay: Replay | null = null;
  private check: DealCheck | null = null;
  /** What the table's events showed of the hand (null: they did not show its deal). */
  private published: Published | null = null;
  private index = 0;
  private closed = false;
  private readonly onKey = (event: KeyboardEvent): void => this.key(event);
  /** Stops the reading of the table's events when the page leaves the replay. */
  private readonly stop = new AbortController();

  constructor(
    private readonly root: HTMLElement,
    private readonly tableId: string,
    private readonly hand: number,
  ) {}

  async start(): Promise<void> {
    replace(this.root, t("loading"));
    // What the table's events showed of the hand: read beside the export, waited for only
    // by the fair-deal check, so the replay shows at once.
    const published = publishedDeal(this.tableId, this.hand, this.stop.signal).catch(() => null);
    let caseYaml: string;
    try {
      const [got, table] = await Promise.all([
        play.exportHand({ tableId: this.tableId, handNumber: this.hand }),
        tables.getTable({ tableId: this.tableId }).catch(() => null),
      ]);
      this.table = table?.table ?? null;
      caseYaml = got.caseYaml;
    } catch (error) {
      if (!this.closed) this.fail(this.failure(error));
      return;
    }
    if (this.closed) return;
    let exported: unknown;
    try {
      exported = parse(caseYaml);
      this.replay = replayOf(exported);
    } catch (error) {
      this.fail(t("failed", { message: error instanceof Error ? error.message : String(error) }));
      return;
    }
    document.addEventListener("keydown", this.onKey);
    this.draw();
    this.published = await published;
    if (this.closed) return;
    const ruleset = this.table?.ruleset;
    try {
      this.check = await checkDeal(exported, {
        published: this.published,
        ruleset: ruleset ? { hash: ruleset.hash, direction: DIRECTIONS[ruleset.direction] ?? "" } : null,
      });
    } catch (error) {
      console.error("the fair-deal check failed to run", error);
    }
    if (!this.closed) this.draw();
  }

  /** A refusal of ExportHand; a hand not found or not over is named as the page numbers
   * hands (from 1), not as the API does (from 0). */
  private failure(error: unknown): string {
    const reason = refusal(error).reason;
    if (reason === "hand_not_found") return t("failed", { message: t("replayNoHand", { n: this.hand + 1 }) });
    if (reason === "hand_not_over") return t("failed", { message: t("replayNotOver", { n: this.hand + 1 }) });
    return failedText(error);
  }

  private fail(message: string): void {
    replace(this.root, this.links(), h("p", { class: "message", role: "alert" }, message));
  }

  close(): void {
    this.closed = true;
    this.stop.abort();
    document.removeEventListener("keydown", this.onKey);
  }

  /** The seat as the table names it (the replay's seats where the table is not known). */
  private name(seat: number): string {
    const players = this.replay?.players ?? this.table?.seatCount ?? 0;
    const seats = this.table?.seats ?? [];
    return seatName(Array.from({ length: Math.max(players, seats.length) }, (_, at) => seats[at]), seat);
  }

  private key(event: KeyboardEvent): void {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    const last = this.replay?.steps.length ?? 0;
    const to: Record<string, number> = {
      ArrowLeft: this.index - 1,
      ArrowRight: this.index + 1,
      Home: 0,
      End: last,
    };
    if (!(event.key in to)) return;
    event.preventDefault();
    this.go(to[event.key]);
  }

  private go(index: number): void {
    const last = this.replay?.steps.length ?? 0;
    this.index = Math.max(0, Math.min(last, index));
    this.draw();
  }

  private links(): HTMLElement {
    return backLink(" · ", h("a", { href: tableHref(this.tableId), id: "to-table" }, t("replayTable")));
  }

  private fairSection(): HTMLElement {
    const check = this.check;
    let state = "pending";
    let line = t("fairChecking");
    if (check !== null) {
      state = check.fair ? "verified" : check.checkable ? "failed" : "unchecked";
      const values = { ...check.finding.values };
      if (typeof values.seat === "number") values.name = this.name(values.seat);
      if (typeof values.dealer === "number") values.name = this.name(values.dealer);
      if (values.field === "dealer") {
        // the two dealers, named (the case's may not be a seat at all)
        values.fair = this.name(Number(values.fair));
        const recorded = Number(values.recorded);
        if (Number.isInteger(recorded) && recorded >= 0) values.recorded = this.name(recorded);
      }
      if (values.direction === "clockwise") values.direction = t("dealtClockwise");
      if (values.direction === "counterclockwise") values.direction = t("dealtCounterclockwise");
      line = t(check.finding.key, values);
    }
    const derived =
      check !== null && check.derived.length > 0
        ? h(
            "details",
            { class: "derived" },
            h("summary", {}, t("derivedTitle")),
            h(
              "ul",
              { id: "derived" },
              ...check.derived.map((cards, seat) =>
                h("li", { "data-seat": seat, "data-cards": cards.join(" ") }, `${this.name(seat)}: `, ...cards.map((card) => cardFace(card))),
              ),
            ),
          )
        : null;
    return h(
      "section",
      { class: "fairdeal", id: "fairdeal", "data-fair": state },
      h("h3", {}, t("fairDealTitle")),
      check !== null && check.checkable
        ? h(
            "dl",
            {},
            h("dt", {}, t("commitment")),
            h("dd", { class: "hex", id: "commitment" }, check.commitment),
            ...(this.published === null
              ? []
              : [
                  h("dt", {}, t("publishedCommitment", { seq: String(this.published.seq) })),
                  h("dd", { class: "hex", id: "published" }, this.published.commitment),
                ]),
            h("dt", {}, t("seed")),
            h("dd", { class: "hex", id: "seed" }, check.seed),
          )
        : null,
      h("p", { class: `fairline ${state}`, id: "fair-line", role: "status" }, line),
      check !== null && check.checkable && this.published === null
        ? h("p", { class: "hint", id: "unpublished" }, t("fairUnpublished"))
        : null,
      derived,
    );
  }

  private trickBox(state: ReplayState): HTMLElement {
    const shown: Played[] = state.trick.length > 0 ? state.trick : state.ended;
    const label = state.trick.length === 0 && state.ended.length > 0 ? t("trickEnded") : "";
    return h(
      "div",
      { class: "trick", id: "trick", "data-ended": state.trick.length === 0 && state.ended.length > 0 },
      label ? h("div", {}, label) : null,
      shown.length === 0
        ? h("div", {}, t("tableEmpty"))
        : h(
            "ul",
            {},
            ...shown.map((played) => h("li", { "data-seat": played.seat }, `${this.name(played.seat)}: `, cardFace(played.card))),
          ),
      h("div", { id: "waste" }, t("wasteCards", { n: state.waste.length })),
    );
  }

  private seatList(replay: Replay, state: ReplayState): HTMLElement {
    return h(
      "ul",
      { class: "replay-seats", id: "replay-seats" },
      ...state.hands.map((cards, seat) => {
        const out = state.out.includes(seat);
        const bhabhi = state.bhabhi === seat;
        const classes = ["replay-seat", out ? "out" : "", bhabhi ? "bhabhi" : ""].filter(Boolean).join(" ");
        return h(
          "li",
          { class: classes, "data-seat": seat, "data-cards": cards.join(" ") },
          h(
            "div",
            { class: "name" },
            this.name(seat),
            seat === replay.dealer ? ` (${t("dealer")})` : null,
            out ? ` — ${t("out")}` : null,
            bhabhi ? h("strong", { class: "bhabhi-mark" }, ` — ${t("bhabhiMark")}`) : null,
          ),
          h("div", { class: "cards" }, ...sortCards(cards).map((card) => cardFace(card.text))),
        );
      }),
    );
  }

  private draw(): void {
    const replay = this.replay;
    if (this.closed || replay === null) return;
    const last = replay.steps.length;
    const step = this.index === 0 ? null : replay.steps[this.index - 1];
    const state = step?.state ?? replay.start;
    const line =
      step === null ? t("stepDeal", { name: this.name(replay.dealer) }) : say(step.line, (seat) => this.name(seat));
    const controls = h(
      "div",
      { class: "controls" },
      button(t("stepFirst"), () => this.go(0), { id: "step-first", disabled: this.index === 0 }),
      button(t("stepPrevious"), () => this.go(this.index - 1), { id: "step-previous", disabled: this.index === 0 }),
      button(t("stepNext"), () => this.go(this.index + 1), { id: "step-next", disabled: this.index === last }),
      button(t("stepLast"), () => this.go(last), { id: "step-last", disabled: this.index === last }),
      h("span", { id: "step-number", "data-index": this.index }, t("stepOf", { n: this.index, count: last })),
    );
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.id : "";
    replace(
      this.root,
      this.links(),
      h(
        "h2",
        {},
        t("replayTitle", { n: this.hand + 1 }),
        this.table?.ruleset ? ` — ${title(this.table.ruleset)}` : "",
      ),
      this.fairSection(),
      h(
        "section",
        { class: "replay", "aria-label": t("replayTitle", { n: this.hand + 1 }) },
        controls,
        h("p", { class: "hint" }, t("replayKeys")),
        h("p", { class: "stepline", id: "step-line", "aria-live": "polite", "data-over": state.bhabhi !== undefined }, line),
        this.trickBox(state),
        this.seatList(replay, state),
      ),
    );
    if (focused.startsWith("step-")) {
      const again = document.getElementById(focused);
      if (again instanceof HTMLButtonElement && !again.disabled) again.focus();
    }
  }
}

export function replayPage(root: HTMLElement, tableId: string, hand: number): View {
  const page = new ReplayPage(root, tableId, hand);
  void page.start();
  return page;
}
