import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { getInstance } from '#app/i18n/i18next.server'

export const streamTimeout = 5_000

export default function handleRequest(
	request: Request,
	responseStatusCode: number,
	responseHeaders: Headers,
	routerContext: EntryContext,
	loadContext: RouterContextProvider,
) {
	const userAgent = request.headers.get('user-agent')
	const bot = isbot(userAgent)

	// A crash shows the error page to people; a bot gets the bare status
	// (spec section 2), so crawlers do not index an error page as content.
	if (bot && responseStatusCode >= 500) {
		return new Response(`${responseStatusCode} Internal Server Error`, {
			status: responseStatusCode,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
		})
	}

	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		// Bots and SPA-mode wait for the whole page; people get the shell early.
		const readyOption = bot || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
		const { pipe, abort } = renderToPipeableStream(
			<I18nextProvider i18n={getInstance(loadContext)}>
				<ServerRouter context={routerContext} url={request.url} />
			</I18nextProvider>,
			{
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough()
					const stream = createReadableStreamFromReadable(body)
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }))
					pipe(body)
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					if (shellRendered) console.error(error)
				},
			},
		)
		setTimeout(abort, streamTimeout + 1000)
	})
}
