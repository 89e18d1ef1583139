/**
 * The Nodemailer provider's `normalizeIdentifier` is core's `normalizeEmailAddress` (this package
 * keeps no copy): the corpus runs through the provider, and every refusal is core's
 * `InvalidEmailAddress`, so `instanceof` holds across the two packages.
 */
import { describe, expect, it } from "vitest"
import * as core from "@authlib/core"
import { InvalidEmailAddress } from "@authlib/core"
import Nodemailer from "../src/nodemailer.js"

const normalizeEmailAddress = Nodemailer({ server: "smtp://127.0.0.1:2525" }).normalizeIdentifier!

const accepted: Array<[string, string, string]> = [
  ["plain", "jane@example.com", "jane@example.com"],
  ["upper case", "Jane.Doe@Example.COM", "jane.doe@example.com"],
  ["surrounding spaces", "  jane@example.com  ", "jane@example.com"],
  ["trailing newline from a form field", "jane@example.com\n", "jane@example.com"],
  ["plus tag", "jane+auth@example.com", "jane+auth@example.com"],
  ["apostrophe", "o'brien@example.ie", "o'brien@example.ie"],
  ["dots and hyphens", "j.d-x_y@mail.sub-domain.example.co.uk", "j.d-x_y@mail.sub-domain.example.co.uk"],
  ["atext symbols (no %, see below)", "a!#$&*/=?^{|}~b@example.org", "a!#$&*/=?^{|}~b@example.org"],
  ["IDN domain to punycode", "jane@bücher.example", "jane@xn--bcher-kva.example"],
  ["upper-case IDN", "JANE@BÜCHER.EXAMPLE", "jane@xn--bcher-kva.example"],
  ["punycode typed as such", "jane@xn--bcher-kva.example", "jane@xn--bcher-kva.example"],
  ["Cyrillic domain (a different domain, not a look-alike of ours)", "ivan@пример.рф", "ivan@xn--e1afmkfd.xn--p1ai"],
  ["local part of exactly 64", `${"a".repeat(64)}@example.com`, `${"a".repeat(64)}@example.com`],
  ["digit labels", "x@123.example.com", "x@123.example.com"],
]

const refused: Array<[string, unknown, string]> = [
  ["not a string", 42, "EMAIL_NOT_A_STRING"],
  ["array of addresses", ["a@example.com"], "EMAIL_NOT_A_STRING"],
  ["empty", "", "EMAIL_EMPTY"],
  ["only spaces", "   ", "EMAIL_EMPTY"],
  ["comma list", "victim@example.com,attacker@evil.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["comma and space", "victim@example.com, attacker@evil.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["semicolon list", "victim@example.com;attacker@evil.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["inner space", "jane doe@example.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["no-break space", "jane\u00a0@example.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["ideographic space", "jane@example.com\u3000x@evil.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["quoted local part", '"victim@example.com"@evil.com', "EMAIL_FORBIDDEN_CHARACTER"],
  ["quoted local part with space", '"jane doe"@example.com', "EMAIL_SEVERAL_ADDRESSES"],
  ["display name with angle brackets", "Jane<jane@example.com>", "EMAIL_FORBIDDEN_CHARACTER"],
  ["comment", "jane(comment)@example.com", "EMAIL_FORBIDDEN_CHARACTER"],
  ["domain literal", "jane@[127.0.0.1]", "EMAIL_FORBIDDEN_CHARACTER"],
  ["backslash escape", "jane\\@x@example.com", "EMAIL_FORBIDDEN_CHARACTER"],
  ["source route colon", "@relay.com:jane@example.com", "EMAIL_FORBIDDEN_CHARACTER"],
  ["fullwidth at U+FF20", "victim\uff20example.com", "EMAIL_LOOKALIKE_AT"],
  ["small at U+FE6B", "victim\ufe6bexample.com", "EMAIL_LOOKALIKE_AT"],
  ["fullwidth at next to a real one", "attacker@evil.com\uff20example.com", "EMAIL_LOOKALIKE_AT"],
  ["two at signs", "victim@example.com@evil.com", "EMAIL_AT_COUNT"],
  ["no at sign", "jane.example.com", "EMAIL_AT_COUNT"],
  ["NUL byte", "jane@example.com\u0000evil.com", "EMAIL_CONTROL_CHARACTER"],
  ["CRLF header injection", "jane@example.com\r\nBcc: x@evil.com", "EMAIL_CONTROL_CHARACTER"],
  ["zero-width space", "jane\u200b@example.com", "EMAIL_CONTROL_CHARACTER"],
  ["right-to-left override", "jane@example.com\u202emoc.live", "EMAIL_CONTROL_CHARACTER"],
  ["soft hyphen in domain", "jane@exam\u00adple.com", "EMAIL_CONTROL_CHARACTER"],
  ["Cyrillic a in local part", "j\u0430ne@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["Kelvin sign lower-cases to k", "\u212aate@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["% in the local part (the percent hack)", "a%b@example.org", "EMAIL_PERCENT_IN_LOCAL_PART"],
  ["an RFC 2047 encoded-word", "=?utf-8?b?YQ==?=@example.org", "EMAIL_ENCODED_WORD"],
  ["empty local part", "@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["leading dot", ".jane@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["trailing dot in local part", "jane.@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["double dot", "ja..ne@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["local part of 65", `${"a".repeat(65)}@example.com`, "EMAIL_LOCAL_PART_TOO_LONG"],
  ["trailing dot in domain", "jane@example.com.", "EMAIL_DOMAIN_INVALID"],
  ["two trailing dots", "jane@example.com..", "EMAIL_DOMAIN_INVALID"],
  ["empty domain", "jane@", "EMAIL_DOMAIN_INVALID"],
  ["dotless domain", "jane@localhost", "EMAIL_DOMAIN_INVALID"],
  ["IPv4 address", "jane@127.0.0.1", "EMAIL_DOMAIN_INVALID"],
  ["hex IPv4 the URL parser would rewrite", "jane@0x7f.1", "EMAIL_DOMAIN_INVALID"],
  ["percent-encoded domain", "jane@exa%6dple.com", "EMAIL_DOMAIN_INVALID"],
  ["underscore in domain", "jane@exa_mple.com", "EMAIL_DOMAIN_INVALID"],
  ["slash in domain", "jane@example.com/evil", "EMAIL_DOMAIN_INVALID"],
  ["label starting with hyphen", "jane@-example.com", "EMAIL_DOMAIN_INVALID"],
  ["empty label", "jane@example..com", "EMAIL_DOMAIN_INVALID"],
  ["label of 64", `jane@${"a".repeat(64)}.com`, "EMAIL_DOMAIN_INVALID"],
  ["fullwidth letters in domain", "jane@\uff45xample.com", "EMAIL_DOMAIN_INVALID"],
  ["ideographic full stop", "jane@example\u3002com", "EMAIL_DOMAIN_INVALID"],
  ["fullwidth full stop", "jane@example\uff0ecom", "EMAIL_DOMAIN_INVALID"],
  ["invalid punycode", "jane@xn--ab-.com", "EMAIL_DOMAIN_INVALID"],
  ["address over 254", `jane@${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.com`, "EMAIL_TOO_LONG"],
  ["huge input", `${"a".repeat(5000)}@example.com`, "EMAIL_TOO_LONG"],
]

describe("Nodemailer's normalizeIdentifier", () => {
  it("is core's normalizeEmailAddress", () => {
    expect(normalizeEmailAddress).toBe(core.normalizeEmailAddress)
  })

  it("has a corpus of at least 30 refusals", () => {
    expect(refused.length).toBeGreaterThanOrEqual(30)
  })

  it.each(accepted)("accepts %s", (_name, input, expected) => {
    expect(normalizeEmailAddress(input)).toBe(expected)
  })

  it.each(refused)("refuses %s", (_name, input, code) => {
    let error: unknown
    try {
      normalizeEmailAddress(input as string)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidEmailAddress)
    expect(error).toMatchObject({ type: "InvalidEmailAddress", code, cause: { field: "email" } })
    expect((error as Error).message.length).toBeGreaterThan(10)
  })

  it("is idempotent on what it returns", () => {
    for (const [, input] of accepted) {
      const once = normalizeEmailAddress(input)
      expect(normalizeEmailAddress(once)).toBe(once)
    }
  })

  it("says which look-alike it found, and is client-safe", () => {
    const err = (() => {
      try {
        normalizeEmailAddress("victim\uff20example.com")
      } catch (e) {
        return e as InvalidEmailAddress
      }
    })()
    expect(err?.message).toBe('The e-mail address contains a look-alike of "@" (U+FF20); type a plain "@"')
    expect((err?.constructor as typeof InvalidEmailAddress).clientSafe).toBe(true)
  })

  it("tells several addresses apart from a typo with a clear message", () => {
    expect(() => normalizeEmailAddress("a@example.com, b@example.com")).toThrow("Enter a single e-mail address: commas, semicolons and spaces are not allowed")
  })
})
