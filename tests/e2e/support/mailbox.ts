import { expect, type APIRequestContext } from '@playwright/test'
import { linkInDevMailbox } from '../../support/dev-mailbox'

/**
 * The newest link containing `pathPart` in the newest mail to `to`, polling
 * until it arrives. The browser suite's server runs on the embedded default
 * (start-server.js pglite), which keeps mail in the app's development mailbox
 * (/dev/mailbox, read as a visitor would). Mail through SMTP, on the
 * Postgres-backed server, is read by the request-level tests
 * (tests/http/support.ts).
 */
export async function latestMailLink(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
	let link: string | undefined
	await expect
		.poll(
			async () => {
				link = await fromDevMailbox(request, to, pathPart)
				return link
			},
			{ timeout: 10_000 },
		)
		.toBeTruthy()
	return link!
}

async function fromDevMailbox(request: APIRequestContext, to: string, pathPart: string) {
	return linkInDevMailbox(await (await request.get('/dev/mailbox')).text(), to, pathPart)
}

export { uniqueEmail } from '../../support/unique-email'
