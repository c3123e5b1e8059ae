// The two ways the core names a place in a text: a span of offsets, and a JSON path from a document's root. A
// leaf: the model, documents and the locator all import it, and it imports nothing, so none of them import each
// other for a type.

export interface Span {
  start: number;
  end: number;
}

export type JsonPath = (string | number)[];
