import { beforeAll, describe, expect, it } from "vitest"
import { SamlError } from "../src/index.js"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, encryptFor, fields, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { verifyXml } from "./helpers/verify.js"

// Every network input is hostile: whatever is done to a real Response, the answer is an accepted
// assertion whose signed values are unchanged, or a SamlError, never another exception (a 500 in the
// capability). Mutations come from a seeded generator, so a failure replays.

let parties: Parties
let plain: string
let encrypted: string
beforeAll(async () => {
  parties = await makeParties()
  const f = fields()
  plain = sign(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)), "Response", parties.idp)
  encrypted = responseXml(f, await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem))
})

function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0
    return state / 2 ** 32
  }
}

const PIECES = ["<", ">", "&", '"', "'", "<!---->", "]]>", "<![CDATA[x]]>", "&amp;", "&#0;", "\u0000", "\uFFFF", "Assertion", "ID", "#", "=", " ", "xmlns:x=\"y\""]

function mutate(xml: string, next: () => number): string {
  const at = Math.floor(next() * xml.length)
  switch (Math.floor(next() * 4)) {
    case 0:
      return xml.slice(0, at) + xml.slice(at + 1 + Math.floor(next() * 40))
    case 1:
      return xml.slice(0, at) + (PIECES[Math.floor(next() * PIECES.length)] ?? "") + xml.slice(at)
    case 2: {
      const from = Math.floor(next() * xml.length)
      return xml.slice(0, at) + xml.slice(from, from + Math.floor(next() * 200)) + xml.slice(at)
    }
    default:
      return xml.slice(0, at)
  }
}

describe("mutated Responses are refused with a SamlError or keep their signed values", () => {
  for (const [name, source] of [["signed", () => plain], ["encrypted", () => encrypted]] as const) {
    it(`${name}: 150 seeded mutations`, async () => {
      const next = random(name === "signed" ? 36 : 3636)
      const outcomes = new Map<string, number>()
      for (let i = 0; i < 150; i++) {
        let xml = source()
        for (let n = 1 + Math.floor(next() * 3); n > 0; n--) xml = mutate(xml, next)
        const outcome = await verifyXml(parties, xml).then(
          (result) => {
            expect(result.nameId).toBe("alice@acme.test")
            return "accepted"
          },
          (error: unknown) => {
            if (!(error instanceof SamlError)) throw new Error(`mutation ${i} threw ${String(error)}:\n${xml}`)
            return error.code
          },
        )
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      }
      expect([...outcomes.keys()].length).toBeGreaterThan(2)
    })
  }
})
