import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import { dataWithToast, getToast } from 'remix-toast'
import type { FlashToast } from './flash-toast'
import { TOAST_COOKIE } from '#app/security/toast-cookie.server'
import { cookieNames } from '#app/utils/cookies'

type ToastInput = { message: string; description?: string }
type ToastType = FlashToast['type']
type PendingToast = ToastInput & { type: ToastType }

/**
 * A toast an action hands to the page it answers with (not a redirect).
 *
 * remix-toast carries such a toast in a flash cookie, which the next request
 * reads. With JavaScript that is right: the action and the loaders that
 * revalidate after it are two requests. Without JavaScript they are one
 * document request: the root loader has already read the request's cookies
 * when the action's Set-Cookie goes out, so the toast showed one page late
 * (and an older one in its place). So the toast waits here for the request's
 * end: the root loader takes it if it renders in the same request; only when
 * nothing rendered it does it go out as the flash cookie.
 */
type FlashBox = { pending: PendingToast | null; taken: boolean }

const flashContext = createContext<FlashBox | null>(null)

type Ctx = Readonly<RouterContextProvider>

export const flashMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
	const box: FlashBox = { pending: null, taken: false }
	context.set(flashContext, box)
	const response = await next()
	if (!box.pending || box.taken) return response
	// Nothing rendered it (a data request, a redirect, an error page): the
	// next request's root loader reads it from the cookie, as remix-toast does.
	const cookies = new Headers((await dataWithToast(null, box.pending)).init?.headers).getSetCookie()
	for (const cookie of cookies) response.headers.append('Set-Cookie', cookie)
	return response
}

/** `data()` plus a toast, shown on the page this response renders (see FlashBox). */
export function dataWithFlash<T>(context: Ctx, value: T, type: ToastType, toast: string | ToastInput, init?: ResponseInit) {
	const box = context.get(flashContext)
	const input = typeof toast === 'string' ? { message: toast } : toast
	if (box) box.pending = { ...input, type }
	return data(value, init)
}

/**
 * The root loader's toast: one handed over in this very request (a page
 * answering a form post without JavaScript), else the flash cookie's. The
 * headers delete the cookie when the request had one; a request without it
 * gets no cookie (remix-toast's getToast would set an empty one on every
 * response, and every visitor would then carry it).
 */
export async function takeToast(request: Request, context: Ctx) {
	// By name: a value that does not decode is deleted too.
	const hadCookie = cookieNames(request.headers.get('cookie')).includes(TOAST_COOKIE)
	const toast = hadCookie ? (await getToast(request)).toast : undefined
	const headers = new Headers(hadCookie ? { 'Set-Cookie': `${TOAST_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` } : {})
	const box = context.get(flashContext)
	if (box?.pending) {
		box.taken = true
		return { toast: box.pending, headers }
	}
	return { toast: toast ?? null, headers }
}
