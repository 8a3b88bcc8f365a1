import { expect, test, type APIRequestContext } from '@playwright/test'

/**
 * The newest link containing `pathPart` in the newest mail to `to`, polling
 * until it arrives. Where the mail went depends on the server
 * (start-server.js): the pglite one keeps it in the app's development
 * mailbox (/dev/mailbox, read as a visitor would); the postgres one sends it
 * through SMTP to a real SMTP server on loopback, whose catch is served as
 * JSON next to the app.
 */
export async function latestMailLink(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
	const viaSmtp = test.info().project.name.startsWith('postgres')
	let link: string | undefined
	await expect
		.poll(
			async () => {
				link = viaSmtp ? await fromSmtp(request, to, pathPart) : await fromDevMailbox(request, to, pathPart)
				return link
			},
			{ timeout: 10_000 },
		)
		.toBeTruthy()
	return link!
}

async function fromDevMailbox(request: APIRequestContext, to: string, pathPart: string) {
	const html = await (await request.get('/dev/mailbox')).text()
	const items = html.split('<li class="card">').slice(1)
	const mail = items.find((item) => item.includes(`<strong>${to}</strong>`))
	return mail
		?.match(/href="(https?:\/\/[^"]+)"/g)
		?.map((h) => h.slice(6, -1).replace(/&amp;/g, '&'))
		.find((h) => h.includes(pathPart))
}

async function fromSmtp(request: APIRequestContext, to: string, pathPart: string) {
	const base = new URL(test.info().project.use.baseURL!)
	const response = await request.get(`http://127.0.0.1:${Number(base.port) + 1000}/mails?to=${encodeURIComponent(to)}`)
	const mails = (await response.json()) as { to: string[]; subject: string; links: string[] }[]
	return mails.at(-1)?.links.find((l) => l.includes(pathPart))
}

export { uniqueEmail } from '../../support/unique-email'
