/**
 * Where a JSON text stops being valid JSON (the character offset of the first error), for
 * `file:line:column` messages: Node 20's JSON.parse does not always say where
 * (`Unexpected token ']', ..."m": [1,]..." is not valid JSON`). A recursive-descent scan of
 * RFC 8259; returns null when the text is valid.
 */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c < " ") fail();
      if (c === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail();
      } else i++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  /** The items of an object or array after its opening bracket, up to `close`: none, or `item`s separated by commas. */
  const items = (close: string, item: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === ",") i++;
      else if (text[i] === close) {
        i++;
        return;
      } else fail();
    }
  };
  const member = () => {
    space();
    if (text[i] !== '"') fail();
    string();
    space();
    if (text[i] !== ":") fail();
    i++;
    value();
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") return items("}", member);
    if (c === "[") return items("]", value);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail();
  };
  try {
    value();
    space();
    return i < text.length ? i : null;
  } catch (offset) {
    return offset as number;
  }
}
