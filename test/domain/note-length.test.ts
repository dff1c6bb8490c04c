// A note's length is counted one way everywhere: in characters as a person counts them (code points), so an
// emoji or another character outside the Basic Multilingual Plane is one character, not two UTF-16 units.
import { expect, test } from "bun:test";
import { fitsNote, NOTE_MAX, NOTE_MAX_UTF16, noteLength } from "../../src/domain/engagement.ts";

test("emoji and other astral characters count once; combining marks count as written", () => {
  expect(noteLength("")).toBe(0);
  expect(noteLength("abc")).toBe(3);
  expect(noteLength("😀")).toBe(1);
  expect("😀".length).toBe(2);
  expect(noteLength("𝒜𝒷𝒸")).toBe(3);
  expect(noteLength("é")).toBe(1); // precomposed
  expect(noteLength("e\u0301")).toBe(2); // e and a combining accent: two code points
  expect(noteLength("👩🏽‍💻")).toBe(4); // woman, skin tone, joiner, laptop
  expect(noteLength("\uD83D")).toBe(1); // a lone surrogate is one
});

test("the limit holds at NOTE_MAX characters, whatever their UTF-16 length", () => {
  expect(fitsNote("x".repeat(NOTE_MAX))).toBe(true);
  expect(fitsNote("x".repeat(NOTE_MAX + 1))).toBe(false);
  expect(fitsNote("😀".repeat(NOTE_MAX))).toBe(true);
  expect(fitsNote("😀".repeat(NOTE_MAX + 1))).toBe(false);
  // A form's maxlength (UTF-16 units) lets every note that fits through.
  expect("😀".repeat(NOTE_MAX).length).toBeLessThanOrEqual(NOTE_MAX_UTF16);
});
