import { expect, type APIRequestContext } from '@playwright/test'

/**
 * The newest link in the newest mail to `to`, read from the app's
 * development mailbox (/dev/mailbox) over HTTP, polling until it arrives.
 */
export async function latestMailLink(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
	let link: string | undefined
	await expect
		.poll(
			async () => {
				const html = await (await request.get('/dev/mailbox')).text()
				const items = html.split('<li class="card">').slice(1)
				const mail = items.find((item) => item.includes(`<strong>${to}</strong>`))
				link = mail?.match(/href="(https?:\/\/[^"]+)"/g)?.map((h) => h.slice(6, -1)).find((h) => h.includes(pathPart))
				return link
			},
			{ timeout: 10_000 },
		)
		.toBeTruthy()
	return link!.replace(/&amp;/g, '&')
}

let counter = 0
export function uniqueEmail(prefix: string) {
	counter += 1
	return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.test`
}
