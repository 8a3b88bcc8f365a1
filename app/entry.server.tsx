import { PassThrough, pipeline } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from 'react-router'
import { getInstance } from '#app/i18n/i18next.server'
import { sharedRenderContext } from '#app/modules/shared-pages/shared-render.server'
import { describeError } from '#app/security/log.server'
import { NonceProvider } from '#app/security/nonce'
import { requestSecurityContext } from '#app/security/request.server'
import { stylesheetReader } from '#app/styles/inline.server'
import { InlineStylesheetProvider } from '#app/styles/stylesheets'
import { lowPriorityModulePreloads } from '#app/utils/module-preload-priority.server'

export const streamTimeout = 5_000

/** The page's stylesheets, inline in its HTML (app/styles/stylesheets.tsx). */
const builtStylesheet = stylesheetReader()

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
	// (docs/product.md §3.4), so crawlers do not index an error page as content.
	if (bot && responseStatusCode >= 500) {
		return new Response(`${responseStatusCode} Internal Server Error`, {
			status: responseStatusCode,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
		})
	}

	const { nonce } = loadContext.get(requestSecurityContext)
	return new Promise<Response>((resolve, reject) => {
		let shellRendered = false
		// Bots and SPA-mode wait for the whole page; people get the shell early.
		const readyOption = bot || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
		const { pipe, abort } = renderToPipeableStream(
			<NonceProvider value={nonce}>
				<InlineStylesheetProvider value={builtStylesheet}>
					<I18nextProvider i18n={getInstance(loadContext)}>
						<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
					</I18nextProvider>
				</InlineStylesheetProvider>
			</NonceProvider>,
			{
				nonce,
				[readyOption]() {
					shellRendered = true
					const body = new PassThrough()
					// An error in the body (the client left) ends the stream it goes through too.
					const stream = createReadableStreamFromReadable(pipeline(body, lowPriorityModulePreloads(), () => {}))
					responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
					resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }))
					pipe(body)
				},
				onShellError(error: unknown) {
					reject(error)
				},
				onError(error: unknown) {
					responseStatusCode = 500
					// A page that failed to render is not served to other visitors.
					loadContext.get(sharedRenderContext)?.refuse()
					if (shellRendered) console.error(describeError(error))
				},
			},
		)
		setTimeout(abort, streamTimeout + 1000)
	})
}

/**
 * Errors from loaders, actions and rendering. Logged without what they may
 * carry about people: a database error's query parameters and detail, and
 * addresses in messages (describeError). An aborted request (the client
 * left, or its body was over the limit and got a 413) is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
	if (request.signal.aborted) return
	if (error instanceof Error && error.name === 'PayloadTooLargeError') return
	console.error(describeError(error))
}
