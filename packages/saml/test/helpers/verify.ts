import { expect } from "vitest"
import { SamlError, verifySamlResponse, type VerifySamlResponseOptions } from "../../src/index.js"
import type { Parties } from "@authlib/e2e-kit/saml/keys"
import { ACS_URL, b64, IDP_ENTITY_ID, NOW, REQUEST_ID, SP_ENTITY_ID } from "@authlib/e2e-kit/saml/idp"

/** Verify a Response (XML text) as the SP of the tests, with the defaults the capability will use. */
export function verifyXml(parties: Parties, xml: string, over: Partial<VerifySamlResponseOptions> = {}) {
  return verifySamlResponse({
    samlResponse: b64(xml),
    sp: { entityId: SP_ENTITY_ID, acsUrl: ACS_URL, privateKeyPem: parties.sp.privateKeyPem },
    idp: { entityId: IDP_ENTITY_ID, certificates: [parties.idp.certificatePem] },
    expectedRequestId: REQUEST_ID,
    now: NOW,
    ...over,
  })
}

/** Expect a refusal with exactly this code. */
export async function expectRefused(promise: Promise<unknown>, code: SamlError["code"]): Promise<SamlError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error, `expected refusal ${code}`).toBeInstanceOf(SamlError)
  expect((error as SamlError).code).toBe(code)
  return error as SamlError
}
