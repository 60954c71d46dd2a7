// A finished hand step by step, from its export (ExportHand's case): every seat's cards, the
// trick on the table, the waste pile, who picked up what, who is out and the Bhabhi, after
// each step's events (the engine's events as the case writes them). Pure: no DOM, no words
// (a step's line is a list of keys of the page's words, filled in by the view).
import { cardId } from "./cards";
import { isMapping, type Mapping, num, recordedDeal, words } from "./exported";
import { type LinePart, pickedUpLine } from "./lines";

export interface Played {
  seat: number;
  card: string;
}

/** What is to be seen after a step. */
export interface ReplayState {
  /** Every seat's cards, in the order received. */
  hands: string[][];
  /** The trick on the table. */
  trick: Played[];
  /** The trick that ended in this step (picked up or sent to the waste pile), else []. */
  ended: Played[];
  /** The cards of the waste pile. */
  waste: string[];
  /** The seats out, in the order they went out. */
  out: number[];
  /** The trump suit, once fixed ("" before). */
  trump: string;
  /** The Bhabhi once the hand is over (null: nobody); undefined while it goes on. */
  bhabhi: number | null | undefined;
}

export interface ReplayStep {
  seat: number;
  action: string;
  line: LinePart[];
  state: ReplayState;
}

export interface Replay {
  players: number;
  dealer: number;
  /** The state as dealt, then one step per action. */
  start: ReplayState;
  steps: ReplayStep[];
  /** The result's Bhabhi (null: nobody; undefined: the export has no result). */
  bhabhi: number | null | undefined;
}

const same = (a: string, b: string): boolean => cardId(a) !== null && cardId(a) === cardId(b);

/** Takes `card` out of `cards` (a seat's hand or the waste pile); false when not there. */
function remove(cards: string[] | undefined, card: string): boolean {
  const at = cards?.findIndex((held) => same(held, card)) ?? -1;
  if (at >= 0) cards?.splice(at, 1);
  return at >= 0;
}

function copy(state: ReplayState): ReplayState {
  return {
    hands: state.hands.map((cards) => [...cards]),
    trick: [...state.trick],
    ended: [],
    waste: [...state.waste],
    out: [...state.out],
    trump: state.trump,
    bhabhi: state.bhabhi,
  };
}

/** Applies one event to `state`; the line part that tells it, or null. */
function apply(state: ReplayState, event: Mapping): LinePart | null {
  const seat = num(event.seat);
  switch (event.kind) {
    case "card_played": {
      const card = String(event.card);
      remove(state.hands[seat], card);
      state.trick.push({ seat, card });
      return { key: "eventPlayed", values: { name: seat, card } };
    }
    case "trick_to_waste":
      state.waste.push(...words(event.cards));
      state.ended = state.trick;
      state.trick = [];
      return { key: "eventToWaste", values: {} };
    case "picked_up": {
      const cards = words(event.cards);
      const fromWaste = Math.max(0, num(event.from_waste));
      if (event.penalty === true) {
        // C12, H25, H26: the cards picked up as a penalty come from wherever they are: the
        // trick on the table, or the hand of whoever picked them up just before (H26)
        for (const card of cards) {
          if (!state.trick.some((played) => same(played.card, card))) {
            state.hands.some((held, at) => at !== seat && remove(held, card));
          }
        }
      }
      state.hands[seat]?.push(...cards);
      if (fromWaste > 0) {
        state.hands[seat]?.push(...state.waste);
        state.waste = [];
      }
      state.ended = state.trick;
      state.trick = [];
      return pickedUpLine(seat, cards, fromWaste);
    }
    case "waste_drawn": {
      const card = typeof event.card === "string" ? event.card : "";
      if (card) {
        remove(state.waste, card);
        state.hands[seat]?.push(card);
      }
      return { key: "eventDrewWaste", values: { name: seat, card } };
    }
    case "card_drawn": {
      const card = typeof event.card === "string" ? event.card : "";
      const from = num(event.from_seat);
      if (card && remove(state.hands[from], card)) state.hands[seat]?.push(card);
      return { key: "eventDrewFrom", values: { name: seat, other: from, card } };
    }
    case "hand_taken": {
      const taker = num(event.taker);
      const cards = words(event.cards);
      for (const card of cards) {
        if (remove(state.hands[seat], card)) state.hands[taker]?.push(card);
      }
      return { key: "eventTaken", values: { taker, name: seat } };
    }
    case "take_requested":
      return { key: "eventTakeAsked", values: { taker: num(event.taker), name: seat } };
    case "take_answered":
      return {
        key: event.agreed === true ? "eventTakeAgreed" : "eventTakeRefused",
        values: { name: seat, taker: num(event.taker) },
      };
    case "take_passed":
      return { key: "eventTakePassed", values: { name: seat } };
    case "tochoo_challenged":
      return event.right === true
        ? { key: "eventChallengeRight", values: { name: num(event.challenger), offender: num(event.offender) } }
        : { key: "eventChallengeWrong", values: { name: num(event.challenger) } };
    case "trump_fixed":
      state.trump = String(event.suit ?? "");
      return { key: "eventTrump", values: { name: seat } };
    case "player_out":
      if (!state.out.includes(seat)) state.out.push(seat);
      return { key: "eventOut", values: { name: seat } };
    case "illegal_play_penalised":
      return { key: "eventPenalty", values: { name: seat } };
    case "hand_over": {
      const outcome = isMapping(event.outcome) ? event.outcome : {};
      const bhabhi = typeof outcome.bhabhi === "number" ? outcome.bhabhi : null;
      state.bhabhi = bhabhi;
      return bhabhi === null ? { key: "noBhabhi", values: {} } : { key: "bhabhiIs", values: { name: bhabhi } };
    }
    default:
      return null;
  }
}

/** The replay of an exported hand (the case parsed from YAML). */
export function replayOf(exported: unknown): Replay {
  const root = isMapping(exported) ? exported : {};
  const deal = recordedDeal(root);
  const players = typeof root.players === "number" ? root.players : deal.length;
  const hands = Array.from({ length: players }, (_, seat) => [...(deal[seat] ?? [])]);
  const start: ReplayState = { hands, trick: [], ended: [], waste: [], out: [], trump: "", bhabhi: undefined };
  const steps: ReplayStep[] = [];
  let state = start;
  for (const raw of Array.isArray(root.steps) ? root.steps : []) {
    if (!isMapping(raw)) continue;
    state = copy(state);
    const line: LinePart[] = [];
    for (const event of Array.isArray(raw.events) ? raw.events : []) {
      if (!isMapping(event)) continue;
      const part = apply(state, event);
      if (part !== null) line.push(part);
    }
    const seat = num(raw.seat);
    const action = String(raw.action ?? "");
    if (line.length === 0) line.push({ key: "stepAction", values: { name: seat, action } });
    steps.push({ seat, action, line, state });
  }
  const result = isMapping(root.result) ? root.result : null;
  const bhabhi = result === null ? undefined : typeof result.bhabhi === "number" ? result.bhabhi : null;
  return { players, dealer: num(root.dealer), start, steps, bhabhi };
}
