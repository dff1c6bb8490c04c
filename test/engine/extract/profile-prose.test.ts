// Company facts stated in sentences (ownership, headquarters, team size, founding year), each with its sentence
// as evidence; a sentence that does not say it of the company gives nothing.
import { expect, test } from "bun:test";
import { extractPage } from "../../../src/engine/extract/page.ts";
import { profileFrom } from "../../../src/engine/extract/profile.ts";

const about = (text: string) => {
  const p = extractPage(
    `<html><body><main><h1>About us</h1><p>${text}</p></main></body></html>`,
    "https://acme.example/about",
  );
  const profile = profileFrom([p]);
  return { profile, evidence: profile.evidence };
};

test("ownership from sentences: bootstrapped with adjectives, self-funded, acquired by, part of", () => {
  const a = about("We’re a small, bootstrapped team of 12 people.");
  expect(a.profile.ownership).toEqual({ type: "Bootstrapped" });
  expect(a.profile.company_size).toBe(12);
  expect(a.evidence.ownership).toEqual({
    url: "https://acme.example/about",
    excerpt: "We’re a small, bootstrapped team of 12 people.",
  });
  expect(about("Acme is 100% bootstrapped and profitable.").profile.ownership).toEqual({
    type: "Bootstrapped",
  });
  expect(about("Self-funded since day one.").profile.ownership).toEqual({ type: "Bootstrapped" });
  expect(about("In 2023, Acme was acquired by Initech.").profile.ownership).toEqual({
    type: "Acquired",
    parent_company_name: "Initech",
  });
  expect(about("Acme is now part of Initech.").profile.ownership).toEqual({
    parent_company_name: "Initech",
  });
  // not said of the company
  expect(about("Many of our customers were bootstrapped startups.").profile.ownership).toBeUndefined();
  expect(
    about("We help founders who want to get acquired by bigger firms.").profile.ownership,
  ).toBeUndefined();
});

test("headquarters from a sentence, with the sentence as evidence; a region is no country", () => {
  const b = about("Founded in 2014, Acme is headquartered in Berlin, Germany.");
  expect(b.profile.headquarters).toEqual({ city: "Berlin", country: "Germany" });
  expect(b.profile.founding_year).toBe(2014);
  expect(b.evidence.headquarters?.excerpt).toContain("headquartered in Berlin, Germany");
  expect(about("We're based in Toronto, Canada.").profile.headquarters).toEqual({
    city: "Toronto",
    country: "Canada",
  });
  expect(about("Acme is headquartered in Austin, Texas.").profile.headquarters).toEqual({ city: "Austin" });
  // customers or offices elsewhere are not the headquarters
  expect(about("Our customers are based in 40 countries.").profile.headquarters).toBeUndefined();
  expect(about("We have an office in London.").profile.headquarters).toBeUndefined();
});
