/**
 * The newest link containing `pathPart` in the newest mail to `to` on the
 * development mailbox's page (/dev/mailbox, newest first), as a visitor reads it.
 */
export function linkInDevMailbox(html: string, to: string, pathPart: string): string | undefined {
	const mail = html
		.split('<li class="card">')
		.slice(1)
		.find((item) => item.includes(`<strong>${to}</strong>`))
	return mail
		?.match(/href="(https?:\/\/[^"]+)"/g)
		?.map((href) => href.slice(6, -1).replace(/&amp;/g, '&'))
		.find((href) => href.includes(pathPart))
}
