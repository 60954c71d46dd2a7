// The referee's own API, as the page speaks it: the Connect protocol (JSON) to the origin
// that served the page, through clients generated from proto/ (src/gen/, `buf generate`).
// Every call carries the page's language as `accept-language`, which the referee answers
// refusals in; a seat's calls carry its credential as `authorization: Bearer …`.
import { type Client, Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import {
  PlayService,
  RulesetService,
  TableService,
} from "./gen/bhabhi/referee/v1/referee_pb";
import { language, t } from "./i18n";

const withLanguage: Interceptor = (next) => async (request) => {
  request.header.set("accept-language", language());
  return next(request);
};

const transport = createConnectTransport({
  baseUrl: location.origin,
  interceptors: [withLanguage],
});

export const rulesets: Client<typeof RulesetService> = createClient(RulesetService, transport);
export const tables: Client<typeof TableService> = createClient(TableService, transport);
export const play: Client<typeof PlayService> = createClient(PlayService, transport);

/** The call options of a seat's call: its credential. */
export function seatHeaders(token: string | undefined): { headers?: Record<string, string> } {
  return token ? { headers: { authorization: `Bearer ${token}` } } : {};
}

/** A refusal's reason, its words in the page's language, and the values the referee
 * named in it (ErrorInfo's metadata: `turn`, `seat`, `last_seq`…). */
export interface Refusal {
  reason: string;
  message: string;
  code: Code;
  details: Record<string, string>;
}

/** Fields 1 and 2 of a message of two strings: a LocalizedMessage's locale and message,
 * or an ErrorInfo metadata entry's key and value. */
function stringPair(value: Uint8Array): [string, string] {
  const reader = new BinaryReader(value);
  let first = "";
  let second = "";
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) first = reader.string();
    else if (field === 2) second = reader.string();
    else reader.skip(wireType);
  }
  return [first, second];
}

/** ErrorInfo: its reason (1) and metadata (3). */
function decodeErrorInfo(value: Uint8Array): [string, Record<string, string>] {
  const reader = new BinaryReader(value);
  let reason = "";
  const details: Record<string, string> = {};
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) reason = reader.string();
    else if (field === 3) {
      const [key, entry] = stringPair(reader.bytes());
      details[key] = entry;
    } else reader.skip(wireType);
  }
  return [reason, details];
}

/** What a failed call says: the ErrorInfo's reason and the LocalizedMessage in the page's
 * language (else the message the referee chose from accept-language). */
export function refusal(error: unknown): Refusal {
  const connect = ConnectError.from(error);
  let reason = "";
  let details: Record<string, string> = {};
  let message = connect.rawMessage;
  for (const detail of connect.details) {
    if (!("type" in detail) || !(detail.value instanceof Uint8Array)) continue;
    if (detail.type === "google.rpc.ErrorInfo") [reason, details] = decodeErrorInfo(detail.value);
    if (detail.type === "google.rpc.LocalizedMessage") {
      const [locale, words] = stringPair(detail.value);
      if (locale === language() && words) message = words;
    }
  }
  return { reason, message, code: connect.code, details };
}

/** True when the referee gave no answer (the network down, the referee starting or
 * gone): no refusal came, so asking again may help. */
export function noAnswer(error: unknown): boolean {
  return refusal(error).reason === "";
}

/** A failed call in the page's words: "Failed: " and the refusal, or that no answer came. */
export function failedText(error: unknown): string {
  return noAnswer(error) ? t("noAnswer") : t("failed", { message: refusal(error).message });
}

/** A refused move or request in the page's words: "Refused: " and the refusal, or that no
 * answer came. */
export function refusedText(error: unknown): string {
  return noAnswer(error) ? t("noAnswer") : t("refused", { message: refusal(error).message });
}

/** A request id no other request of this seat has: random, and not a secret. */
export function requestId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
