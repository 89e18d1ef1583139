/** The text of `src/kernel/pages/passkey-script.ts` as the bundler would write it now. */
export function passkeyScriptModule(): Promise<string>
