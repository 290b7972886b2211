import { describe, expect, it } from "vitest";
import { ByteInterner } from "../../pipeline/ingest/byte-interner";

describe("ByteInterner", () => {
  it("gives dense ids in order of first sight, the same for bytes and text", () => {
    const interner = new ByteInterner();
    const bytes = Buffer.from("azur-1,azur-2,azur-1");
    expect(interner.idOfBytes(bytes, 0, 6)).toBe(0);
    expect(interner.idOfBytes(bytes, 7, 13)).toBe(1);
    expect(interner.idOfBytes(bytes, 14, 20)).toBe(0);
    expect(interner.idOfText("azur-2")).toBe(1);
    expect(interner.idOfHashedBytes(bytes, 7, 13, ByteInterner.hash(bytes, 7, 13))).toBe(1);
    expect(interner.text(1)).toBe("azur-2");
    expect(interner.has(bytes, 0, 6)).toBe(true);
    expect(interner.has(Buffer.from("azur-3"), 0, 6)).toBe(false);
    expect(interner.size).toBe(2);
  });

  it("takes bytes that are not UTF-8 as what decoding makes of them, as text does", () => {
    const interner = new ByteInterner();
    const invalid = Buffer.from([0x72, 0xff, 0x31]); // "r", an invalid byte, "1"
    const text = invalid.toString("utf8"); // "r\uFFFD1"
    expect(interner.idOfText(text)).toBe(0);
    expect(interner.idOfBytes(invalid, 0, 3)).toBe(0);
    expect(interner.idOfHashedBytes(invalid, 0, 3, ByteInterner.hash(invalid, 0, 3))).toBe(0);
    expect(interner.has(invalid, 0, 3)).toBe(true);
  });

  it("keeps a hundred thousand values apart through its growth", () => {
    const interner = new ByteInterner();
    for (let i = 0; i < 100_000; i++) expect(interner.idOfText(`v076-m12-r${i}`)).toBe(i);
    for (let i = 0; i < 100_000; i += 997) expect(interner.text(interner.idOfText(`v076-m12-r${i}`))).toBe(`v076-m12-r${i}`);
    expect(interner.size).toBe(100_000);
  });
});
