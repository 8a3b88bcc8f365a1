import { RouterContextProvider } from 'react-router'
import { getToast, redirectWithSuccess } from 'remix-toast'
import { describe, expect, test } from 'vitest'
import { dataWithFlash, flashMiddleware, takeToast } from './flash.server'

/** Runs the middleware around `handle`, as React Router does around a request's action and loaders. */
async function run(
	handle: (context: RouterContextProvider) => Promise<Response | void>,
	request = new Request('http://localhost/en/register', { method: 'POST' }),
) {
	const context = new RouterContextProvider()
	let rendered: Awaited<ReturnType<typeof takeToast>> | undefined
	const response = (await flashMiddleware({ request, context, params: {}, unstable_pattern: '' } as never, async () => {
		const answer = await handle(context)
		if (answer) return answer
		rendered = await takeToast(request, context)
		return new Response('<html>', { headers: rendered.headers })
	})) as Response
	return { response, rendered }
}

async function toastInCookie(response: Response) {
	const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
	return (await getToast(new Request('http://localhost/en', { headers: { cookie: cookies } }))).toast
}

describe('a toast handed to the answering page', () => {
	test('shows on the page rendered in the same request, and is not left in a cookie for the next page', async () => {
		const { response, rendered } = await run(async (context) => {
			dataWithFlash(context, { sent: true }, 'success', { message: 'Almost there!', description: 'Check your inbox.' })
		})
		expect(rendered?.toast).toMatchObject({ type: 'success', message: 'Almost there!', description: 'Check your inbox.' })
		expect(await toastInCookie(response)).toBeUndefined()
	})

	test('goes out as the flash cookie when nothing rendered it (a JavaScript data request)', async () => {
		const { response, rendered } = await run(async (context) => {
			dataWithFlash(context, null, 'success', 'We have sent a new mail.')
			return new Response('data')
		})
		expect(rendered).toBeUndefined()
		expect(await toastInCookie(response)).toMatchObject({ type: 'success', message: 'We have sent a new mail.' })
	})

	test('wins over an older toast still in the request cookie, which is cleared', async () => {
		const older = (await redirectWithSuccess('/en', 'Almost there!')).headers.getSetCookie()[0]!.split(';')[0]!
		const { response, rendered } = await run(
			async (context) => {
				dataWithFlash(context, null, 'error', 'Not yet.')
			},
			new Request('http://localhost/en/register', { method: 'POST', headers: { cookie: older } }),
		)
		expect(rendered?.toast).toMatchObject({ message: 'Not yet.' })
		expect(await toastInCookie(response)).toBeUndefined()
	})
})

describe('the flash cookie', () => {
	test('is taken and deleted when the request has it, and not set at all when it has none', async () => {
		const cookie = (await redirectWithSuccess('/en', 'Saved.')).headers.getSetCookie()[0]!.split(';')[0]!
		const taken = await takeToast(new Request('http://localhost/en', { headers: { cookie } }), new RouterContextProvider())
		expect(taken.toast).toMatchObject({ type: 'success', message: 'Saved.' })
		expect(taken.headers.getSetCookie()).toEqual(['toast-session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'])
		// A visitor's page sets no cookie (or every visitor would carry an empty one, and no session page could be shared).
		const none = await takeToast(new Request('http://localhost/en', { headers: { cookie: 'i18n_redirected=en' } }), new RouterContextProvider())
		expect(none).toEqual({ toast: null, headers: new Headers() })
		// One whose value does not even decode is deleted too.
		const broken = await takeToast(new Request('http://localhost/en', { headers: { cookie: 'toast-session=%E0%A4%A' } }), new RouterContextProvider())
		expect(broken.toast).toBeNull()
		expect(broken.headers.getSetCookie()).toHaveLength(1)
	})
})
