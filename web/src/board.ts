// The table drawn from what the seat may know (its SeatView and the Table): the seats round
// the table with the current trick's cards in front of their players, others' card counts,
// whose turn, the viewer's hand sorted by suit with the legal cards raised (only they are
// buttons one can press, by mouse or by Tab and Enter), and the other legal actions.
import { cardFace, cardText, normalCard, SUIT_SYMBOL, type Suit, sortCards, suitFace } from "./cards";
import { button, h } from "./dom";
import { t } from "./i18n";
import { seatName as namedSeat, playerName } from "./names";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  type Action,
  ActionKind,
  type ActionSchema,
  PlayDirection,
  type SeatView,
  type Table,
} from "./gen/bhabhi/referee/v1/referee_pb";

export type ActionInit = MessageInitShape<typeof ActionSchema>;

export interface Board {
  table: Table;
  view: SeatView | null;
  /** The viewer's seat; null for a spectator. */
  seat: number | null;
  /** The turn clock's time left (`m:ss`), "" without one. */
  clock: string;
  act: (action: ActionInit) => void;
  /** The seat that has just picked a trick up (highlighted for a moment), if any. */
  picker?: number | null;
}

/** The seat as the page names it at this table. */
const seatName = (table: Table, seat: number): string => namedSeat(table.seats, seat);

/** Where seat `offset` places after the viewer sits, in percent of the table's box: the
 * viewer at the bottom, the next seat clockwise (seen from above) to its left. */
function position(offset: number, players: number): { left: number; top: number } {
  const angle = (2 * Math.PI * offset) / players;
  return { left: 50 - 40 * Math.sin(angle), top: 50 + 38 * Math.cos(angle) };
}

function seatBox(board: Board, seat: number): HTMLElement {
  const { table, view } = board;
  const players = table.seatCount;
  const viewer = board.seat ?? 0;
  const where = position((seat - viewer + players) % players, players);
  const played = view?.trick.find((card) => card.seat === seat);
  const size = view?.handSizes[seat];
  const out = view?.out[seat] ?? false;
  const turn = view !== null && view.toAct.includes(seat);
  const known = view?.knownCards[seat]?.cards ?? [];
  // The power: the seat that leads the trick about to start.
  const leads = view !== null && !view.result && view.trick.length === 0 && view.leader === seat;
  const picked = board.picker === seat;
  const classes = [
    "seat",
    turn ? "turn" : "",
    out ? "out" : "",
    seat === board.seat ? "mine" : "",
    picked ? "picked" : "",
  ];
  return h(
    "div",
    {
      class: classes.filter(Boolean).join(" "),
      "data-seat": seat,
      style: `left:${where.left}%;top:${where.top}%`,
    },
    // The player's name, and the seat's number below it: two bots of one kind, whose
    // names a narrow box cuts short, are told apart by it (the log names them so too).
    h(
      "div",
      { class: "name", title: seatName(table, seat) },
      playerName(table.seats[seat]) || t("seatN", { n: seat + 1 }),
      seat === board.seat ? ` (${t("you")})` : null,
    ),
    playerName(table.seats[seat]) ? h("div", { class: "number" }, t("seatN", { n: seat + 1 })) : null,
    view === null
      ? null
      : h(
          "div",
          { class: "count" },
          out ? t("out") : size === undefined || size < 0 ? t("cardsHidden") : t("cards", { n: size }),
        ),
    leads ? h("div", { class: "leads" }, t("leads")) : null,
    picked ? h("div", { class: "pickup", role: "status" }, t("pickedUpNow")) : null,
    known.length > 0 && seat !== board.seat
      ? h("div", { class: "known", title: t("seen") }, ...known.map((card) => cardFace(card)))
      : null,
    played ? h("div", { class: "played" }, cardFace(played.card)) : null,
  );
}

function centre(table: Table, view: SeatView): HTMLElement {
  const direction = table.ruleset?.direction;
  return h(
    "div",
    { class: "centre" },
    direction === PlayDirection.COUNTERCLOCKWISE || direction === PlayDirection.CLOCKWISE
      ? h(
          "div",
          { class: "direction", "data-direction": direction },
          t(direction === PlayDirection.CLOCKWISE ? "clockwise" : "counterclockwise"),
        )
      : null,
    h("div", {}, t("trick", { n: view.trickNumber + 1 })),
    view.ledSuit ? h("div", {}, `${t("ledSuit")}: `, suitFace(view.ledSuit)) : null,
    view.trump ? h("div", {}, `${t("trump")}: `, suitFace(view.trump)) : null,
    h("div", {}, t("waste", { n: view.wasteSize })),
  );
}

/** The sentence saying whose move it is, or how the hand ended. */
export function turnLine(board: Board): string {
  const { table, view } = board;
  if (view === null) return "";
  if (view.result) {
    const bhabhi = view.result.bhabhi;
    const who = bhabhi === undefined ? t("noBhabhi") : t("bhabhiIs", { name: seatName(table, bhabhi) });
    return `${t("handOver")} ${who}`;
  }
  if (board.seat !== null && view.toAct.includes(board.seat)) return t("yourTurn");
  if (view.turn < 0) return "";
  return t("turnOf", { name: seatName(table, view.turn) });
}

function actionLabel(table: Table, action: Action): string {
  const other = action.seat === undefined ? "" : seatName(table, action.seat);
  switch (action.kind) {
    case ActionKind.PICK_UP:
      return t("pickUp");
    case ActionKind.TAKE_HAND:
      return other ? t("takeHandOf", { name: other }) : t("takeHand");
    case ActionKind.PASS:
      return t("pass");
    case ActionKind.CHALLENGE:
      return t("challenge");
    case ActionKind.AGREE:
      return t("agree");
    case ActionKind.REFUSE:
      return t("refuse");
    case ActionKind.CHOOSE_TRUMP:
      return t("chooseTrump", { suit: SUIT_SYMBOL[action.suit as Suit] ?? action.suit });
    case ActionKind.DRAW_FROM:
      return t("drawFrom", { name: other });
    default:
      return ActionKind[action.kind] ?? String(action.kind);
  }
}

function actionKey(action: Action): string {
  return `${action.kind}:${action.seat ?? ""}:${action.suit}`;
}

function hand(board: Board): HTMLElement | null {
  const { view } = board;
  if (view === null || board.seat === null) return null;
  const legal = new Set(
    view.legalActions
      .filter((action) => action.kind === ActionKind.PLAY)
      .map((action) => normalCard(action.card)),
  );
  const cards = sortCards(view.hand).map((card) => {
    const playable = legal.has(card.text);
    const element = h(
      "button",
      {
        type: "button",
        class: playable ? "card legal" : "card",
        "data-card": card.text,
        disabled: !playable,
        "aria-label": cardText(card.text),
      },
      cardFace(card.text),
    );
    // Every card has the handler; the browser lets only an enabled one be pressed.
    element.addEventListener("click", () => board.act({ kind: ActionKind.PLAY, card: card.text }));
    return element;
  });
  const others = view.legalActions
    .filter((action) => action.kind !== ActionKind.PLAY)
    .map((action) =>
      button(actionLabel(board.table, action), () => board.act(action), {
        class: "action",
        "data-action": actionKey(action),
      }),
    );
  const out = view.out[board.seat] ?? false;
  return h(
    "section",
    { class: "hand", "aria-label": t("yourHand") },
    h("h3", {}, t("yourHand")),
    out && cards.length === 0 ? h("p", { class: "out" }, t("youAreOut")) : null,
    h("div", { class: "cards" }, ...cards),
    // Always there (empty when there is nothing but cards), so that buttons appearing with
    // a decision do not move the cards under a finger.
    h("div", { class: "actions" }, ...others),
    legal.size > 0 ? h("p", { class: "hint" }, t("legalHint")) : null,
  );
}

/** The round table and, for a seat, its hand. */
export function drawBoard(board: Board): HTMLElement {
  const seats = Array.from({ length: board.table.seatCount }, (_, seat) => seatBox(board, seat));
  return h(
    "div",
    { class: "board" },
    h("div", { class: "round" }, ...seats, board.view ? centre(board.table, board.view) : null),
    h(
      "p",
      { class: "turnline", id: "turn", "data-over": Boolean(board.view?.result) },
      turnLine(board),
      " ",
      h("span", { class: "clock", id: "clock", "aria-label": t("clock") }, board.clock),
    ),
    hand(board),
  );
}
