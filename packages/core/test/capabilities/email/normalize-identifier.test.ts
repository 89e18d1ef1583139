import { describe, expect, it } from "vitest"
import { InvalidEmailAddress } from "../../../src/kernel/errors/errors.js"
import { normalizeEmailAddress } from "../../../src/capabilities/email/index.js"
import * as core from "../../../src/index.js"

const accepted: Array<[string, string, string]> = [
  ["mixed case and spaces", "  Jane.Doe@Example.COM ", "jane.doe@example.com"],
  ["a trailing newline from a form", "jane@example.com\n", "jane@example.com"],
  ["plus tag and atext", "o'brien+x!#$&*/=?^{|}~@example.ie", "o'brien+x!#$&*/=?^{|}~@example.ie"],
  ["= and ? apart", "a=b?c@example.com", "a=b?c@example.com"],
  ["IDN domain becomes punycode", "JANE@BÜCHER.EXAMPLE", "jane@xn--bcher-kva.example"],
  ["punycode typed as such", "jane@xn--bcher-kva.example", "jane@xn--bcher-kva.example"],
  ["local part of exactly 64", `${"a".repeat(64)}@example.com`, `${"a".repeat(64)}@example.com`],
]

const refused: Array<[string, unknown, string]> = [
  ["a number", 42, "EMAIL_NOT_A_STRING"],
  ["an array (repeated form field)", ["a@example.com"], "EMAIL_NOT_A_STRING"],
  ["blank", "   ", "EMAIL_EMPTY"],
  ["a comma list", "victim@example.com,attacker@evil.example", "EMAIL_SEVERAL_ADDRESSES"],
  ["a semicolon list", "victim@example.com;attacker@evil.example", "EMAIL_SEVERAL_ADDRESSES"],
  ["a no-break space", "jane\u00a0@example.com", "EMAIL_SEVERAL_ADDRESSES"],
  ["a quoted local part", '"victim@example.com"@evil.example', "EMAIL_FORBIDDEN_CHARACTER"],
  ["a display name", "Jane<jane@example.com>", "EMAIL_FORBIDDEN_CHARACTER"],
  ["a domain literal", "jane@[127.0.0.1]", "EMAIL_FORBIDDEN_CHARACTER"],
  ["a source route", "@relay.example:jane@example.com", "EMAIL_FORBIDDEN_CHARACTER"],
  ["a full-width at", "victim\uff20example.com", "EMAIL_LOOKALIKE_AT"],
  ["a small at", "victim\ufe6bexample.com", "EMAIL_LOOKALIKE_AT"],
  ["two at signs", "victim@example.com@evil.example", "EMAIL_AT_COUNT"],
  ["CRLF header injection", "jane@example.com\r\nBcc: x@evil.example", "EMAIL_CONTROL_CHARACTER"],
  ["a zero-width space", "jane\u200b@example.com", "EMAIL_CONTROL_CHARACTER"],
  ["a bidi override", "jane@example.com\u202emoc.live", "EMAIL_CONTROL_CHARACTER"],
  ["Cyrillic a in the local part", "j\u0430ne@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["the Kelvin sign (lower-cases to k)", "\u212aate@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["a double dot", "ja..ne@example.com", "EMAIL_LOCAL_PART_INVALID"],
  ["a local part of 65", `${"a".repeat(65)}@example.com`, "EMAIL_LOCAL_PART_TOO_LONG"],
  ["a trailing dot", "jane@example.com.", "EMAIL_DOMAIN_INVALID"],
  ["a dotless domain", "jane@localhost", "EMAIL_DOMAIN_INVALID"],
  ["an IPv4 address", "jane@127.0.0.1", "EMAIL_DOMAIN_INVALID"],
  ["a hex IPv4 the URL parser rewrites", "jane@0x7f.1", "EMAIL_DOMAIN_INVALID"],
  ["percent-encoding", "jane@exa%6dple.com", "EMAIL_DOMAIN_INVALID"],
  ["full-width letters", "jane@\uff45xample.com", "EMAIL_DOMAIN_INVALID"],
  ["an ideographic full stop", "jane@example\u3002com", "EMAIL_DOMAIN_INVALID"],
  ["a label of 64", `jane@${"a".repeat(64)}.com`, "EMAIL_DOMAIN_INVALID"],
  ["over 254 in total", `jane@${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.com`, "EMAIL_TOO_LONG"],
  ["an RFC 2047 encoded-word", "=?utf-8?q?victim=40corp.example?=@mail.example", "EMAIL_ENCODED_WORD"],
  ["an encoded-word in upper case, base64", "=?UTF-8?B?dmljdGlt?=@mail.example", "EMAIL_ENCODED_WORD"],
  ["the percent hack", "victim%corp.example@relay.example", "EMAIL_PERCENT_IN_LOCAL_PART"],
  ["a lone percent", "50%@example.com", "EMAIL_PERCENT_IN_LOCAL_PART"],
  ["huge input", `${"a".repeat(5000)}@example.com`, "EMAIL_TOO_LONG"],
]

describe("normalizeEmailAddress (core's default normalizeIdentifier)", () => {
  it.each(accepted)("accepts %s", (_name, input, expected) => {
    expect(normalizeEmailAddress(input)).toBe(expected)
    expect(normalizeEmailAddress(expected)).toBe(expected)
  })

  it.each(refused)("refuses %s", (_name, input, code) => {
    let error: unknown
    try {
      normalizeEmailAddress(input)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(InvalidEmailAddress)
    expect(error).toMatchObject({ type: "InvalidEmailAddress", code, cause: { field: "email" } })
  })

  it("accepts encoded-words and % in the local part only when told to, each on its own", () => {
    const word = "=?utf-8?q?Victim?=@Mail.example"
    expect(normalizeEmailAddress(word, { allowEncodedWords: true })).toBe("=?utf-8?q?victim?=@mail.example")
    expect(normalizeEmailAddress("victim%corp.example@relay.example", { allowPercentInLocalPart: true })).toBe("victim%corp.example@relay.example")
    expect(() => normalizeEmailAddress(word, { allowPercentInLocalPart: true })).toThrow(expect.objectContaining({ code: "EMAIL_ENCODED_WORD" }))
    expect(() => normalizeEmailAddress("a%b@example.com", { allowEncodedWords: true })).toThrow(expect.objectContaining({ code: "EMAIL_PERCENT_IN_LOCAL_PART" }))
    // The other rules still hold under the opt-ins.
    expect(() => normalizeEmailAddress("a%b@example.com,c@example.com", { allowEncodedWords: true, allowPercentInLocalPart: true })).toThrow(
      expect.objectContaining({ code: "EMAIL_SEVERAL_ADDRESSES" }),
    )
  })

  it("names the look-alike it found, in a message written for the user", () => {
    expect(() => normalizeEmailAddress("victim\uff20example.com")).toThrow('The e-mail address contains a look-alike of "@" (U+FF20); type a plain "@"')
    expect(() => normalizeEmailAddress("a@example.com, b@example.com")).toThrow("Enter a single e-mail address: commas, semicolons and spaces are not allowed")
    expect((InvalidEmailAddress as unknown as { clientSafe: boolean }).clientSafe).toBe(true)
  })

  it("is part of the public API of @authlib/core, with its errors", () => {
    expect(core.normalizeEmailAddress).toBe(normalizeEmailAddress)
    expect(core.InvalidEmailAddress).toBe(InvalidEmailAddress)
    expect(new core.EmailSignInError("x").type).toBe("EmailSignInError")
    expect(core.DEFAULT_EMAIL_MAX_AGE).toBe(600)
    expect([core.MAX_LOCAL_PART_LENGTH, core.MAX_ADDRESS_LENGTH]).toEqual([64, 254])
  })
})
