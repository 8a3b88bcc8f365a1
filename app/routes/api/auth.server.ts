import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from 'remix-toast'
import { toAppError } from '#app/db/database.server'
import { servicesContext, viewerContext } from '#app/context.server'
import { getInstance, getLocale } from '#app/i18n/i18next.server'
import { wantsJson } from '#app/utils/http'
import { safeRedirectPath } from '#app/utils/redirect'
import { queryAsViewer } from '#app/utils/db.server'
import { UsernameSchema } from '#app/modules/auth/schemas'
import { translateError } from '#app/components/forms'

/**
 * The spec's product server routes under /api/auth. Every one that changes
 * state answers POST only (the same-origin middleware has already refused
 * cross-site requests); see docs/decisions/009-state-changes-are-posts.md.
 * They answer a form post with a redirect back and a toast (works without
 * JavaScript) and a JSON post with JSON.
 */
type Ctx = Readonly<RouterContextProvider>

async function readBody(request: Request): Promise<Record<string, string>> {
	if (request.headers.get('content-type')?.includes('application/json')) {
		const body: unknown = await request.json().catch(() => null)
		if (!body || typeof body !== 'object') return {}
		return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : '']))
	}
	const form = await request.formData()
	return Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']))
}

function backTo(context: Ctx, body: Record<string, string>) {
	return safeRedirectPath(body.redirectTo, `/${getLocale(context)}`)
}

function requireViewer(context: Ctx) {
	const viewer = context.get(viewerContext)
	if (!viewer) throw data({ error: 'error-not-authenticated' }, { status: 401 })
	return viewer
}

/** POST /api/auth/create {username}: the complete-sign-up step. */
export async function createProfile(request: Request, context: Ctx) {
	requireViewer(context)
	const body = await readBody(request)
	const { t } = getInstance(context)
	const back = backTo(context, body)
	const parsed = UsernameSchema.safeParse(body.username ?? '')
	const fail = (code: string, status: number) =>
		wantsJson(request) ? data({ error: code }, { status }) : redirectWithError(back, translateError(t, code))
	if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'validation.username-invalid', 400)
	try {
		await queryAsViewer(context, (tx) =>
			tx.query(
				`insert into public.profiles (id, username) values (auth.uid(), $1)
				 on conflict (id) do update set username = excluded.username`,
				[parsed.data],
			),
		)
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return fail(appError.code, 409)
	}
	return wantsJson(request)
		? data({ username: parsed.data })
		: redirectWithSuccess(back, t('account.complete-success', { username: parsed.data }))
}

/** GET /api/auth/username?username=: is_username_available, for the 500 ms check while typing. */
export async function usernameAvailable(request: Request, context: Ctx) {
	const username = new URL(request.url).searchParams.get('username') ?? ''
	const available = await queryAsViewer(context, async (tx) => {
		const { rows } = await tx.query<{ available: boolean }>('select public.is_username_available($1) as available', [username])
		return rows[0]?.available === true
	})
	return data({ available }, { headers: { 'Cache-Control': 'no-store' } })
}

/** POST /api/auth/consent {type, version, intent}: record (or decline) a document's version. */
export async function consent(request: Request, context: Ctx) {
	requireViewer(context)
	const body = await readBody(request)
	const { t } = getInstance(context)
	const back = backTo(context, body)
	if (body.intent === 'decline') {
		// Nothing is recorded: the dialog comes back. The toast offers account
		// deletion (spec section 4), which without JavaScript is a link to the
		// dialog's delete-account disclosure.
		return wantsJson(request)
			? data({ declined: true })
			: redirectWithError(back, { message: t('account.terms-declined'), action: 'delete-account' })
	}
	try {
		await queryAsViewer(context, (tx) => tx.query('select public.give_consent($1, $2)', [body.type ?? '', body.version ?? '']))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return wantsJson(request) ? data({ error: appError.code }, { status: 400 }) : redirectWithError(back, translateError(t, appError.code))
	}
	return wantsJson(request) ? data({ accepted: true }) : redirectWithInfo(back, t('account.terms-accepted'))
}

/** POST /api/auth/delete: the delete-account confirmation's "Delete". */
export async function deleteAccount(request: Request, context: Ctx) {
	requireViewer(context)
	const { accounts } = context.get(servicesContext).platform
	const { t } = getInstance(context)
	const result = await accounts.deleteAccount(request)
	const home = `/${getLocale(context)}`
	if (!result.ok) {
		return wantsJson(request)
			? data({ error: result.error.code }, { status: result.error.status, headers: result.headers })
			: redirectWithError(home, translateError(t, result.error.code), { headers: result.headers })
	}
	return wantsJson(request) ? data({ deleted: true }, { headers: result.headers }) : redirectWithSuccess(home, t('account.deleted'), { headers: result.headers })
}
