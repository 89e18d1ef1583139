import { generateServiceProviderKeys, type ServiceProviderKeys } from "../../src/index.js"

/** The three parties' key pairs, made once per test file: the SP, the real IdP and an attacker. */
export interface Parties {
  sp: ServiceProviderKeys
  idp: ServiceProviderKeys
  attacker: ServiceProviderKeys
}

export async function makeParties(): Promise<Parties> {
  const [sp, idp, attacker] = await Promise.all([
    generateServiceProviderKeys({ commonName: "sp.example", modulusLength: 2048 }),
    generateServiceProviderKeys({ commonName: "idp.example", modulusLength: 2048 }),
    generateServiceProviderKeys({ commonName: "attacker.example", modulusLength: 2048 }),
  ])
  return { sp, idp, attacker }
}
