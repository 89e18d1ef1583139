/** The text of `src/pages/passkey-script.ts` as the bundler would write it now. */
export function passkeyScriptModule(): Promise<string>
