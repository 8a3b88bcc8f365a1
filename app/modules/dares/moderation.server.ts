import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from 'remix-toast'
import { servicesContext, viewerContext } from '#app/context.server'
import { toAppError, type Queryable } from '#app/db/database.server'
import { translateError } from '#app/i18n/errors'
import { getInstance } from '#app/i18n/i18next.server'
import { DEFAULT_LOCALE, isLocale, type Locale } from '#app/i18n/locales'
import { clientIp } from '#app/modules/account/client-ip.server'
import type { RateLimit } from '#app/modules/account/limits.server'
import { MemoryRateLimiter } from '#app/modules/account/memory-rate-limit.server'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { reportReference, sendReportReceipt } from '#app/modules/moderation/report-mail.server'
import { statementsAsViewer } from '#app/utils/db.server'
import { RESPOND_FIELD } from './answer'
import { reportFormHref } from './report-link'
import { DareIdSchema, ModerationActionSchema } from './schemas'
import { approveDare, banViewer, hideDare, reportDare, reportDareAsVisitor, setHoldNewDares, type ReportTaken } from './service.server'

type Ctx = Readonly<RouterContextProvider>

/**
 * What a moderation form sent by the page's script (`respond=data`) gets
 * instead of a redirect: the toast to show. A report changes nothing on the
 * page; a replayed one is told as information, not as a new success.
 */
export type ModerationResult = { ok: true; message: string; tone: 'success' | 'info' } | { ok: false; error: string }

/**
 * A visitor's reports per client address (TRUST_PROXY's X-Forwarded-For,
 * IPv6 by its /64): 10 in 10 minutes. Without a known address none is
 * counted, as the account limits do; the database still allows one
 * reporter (by e-mail address) 5 reports a minute per session.
 */
export const VISITOR_REPORTS: RateLimit = { max: 10, windowSeconds: 600 }
const visitorLimiter = new MemoryRateLimiter()

/** Whether a visitor from this request's address may send another report; the seconds to wait if not. */
export function visitorReportAllowed(request: Request, trustProxy: number, limiter: MemoryRateLimiter = visitorLimiter): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
	const ip = clientIp(request, trustProxy)
	if (!ip) return { allowed: true }
	return limiter.consume(limiter.key('report:ip', ip), VISITOR_REPORTS)
}

/** The error code of the first field a form the browser should have refused got wrong. */
export function invalidModeration(formData: FormData, fields: Record<string, unknown> = {}): string {
	const intent = formData.get('intent')
	const bad = (name: string) => name in fields
	if (intent === 'hold') return bad('sessionId') ? 'error-live-session-not-found' : 'error-invalid-setting'
	if (intent === 'ban' && bad('userId')) return 'error-ban-unknown-user'
	if (bad('dareId')) return 'error-dare-not-found'
	if (intent !== 'report') return 'error-unknown'
	if (bad('reason')) return 'error-invalid-report-reason'
	if (bad('details')) return String(formData.get('details') ?? '').trim() === '' ? 'error-report-details-required' : 'error-report-details-too-long'
	if (bad('goodFaith')) return 'error-report-good-faith-required'
	if (bad('name')) return 'error-report-name-required'
	if (bad('email')) return 'error-invalid-email'
	return 'error-unknown'
}

/**
 * The moderation forms of a session page (docs/product.md §13): the
 * creator's approve, hide, ban and "hold every new dare", each a plain form
 * post that comes back to the page with a toast (the page is read again),
 * and anyone's report of a dare, which the page's script sends with
 * `respond=data` and gets a ModerationResult for. The database decides every
 * rule (the caller the session's creator, the session live, the dare one
 * the reporter may see) and its refusal is the toast; a form the browser
 * should have refused is refused here first and changes nothing.
 */
export async function moderationAction(request: Request, context: Ctx, formData: FormData) {
	const { t, language } = getInstance(context)
	const locale: Locale = isLocale(language) ? language : DEFAULT_LOCALE
	const back = new URL(request.url).pathname
	// Anyone may report; the creator's forms are theirs alone (a visitor is sent to sign in).
	const reporting = formData.get('intent') === 'report'
	const viewer = reporting ? context.get(viewerContext) : requireViewer(request, context)
	const withData = formData.get(RESPOND_FIELD) === 'data'
	const at = (dareId: string | undefined) => (dareId ? `${back}#dare-${dareId}` : back)
	// A refused report goes back to its form, open (the other forms are always on the page;
	// refused as one's own or a hidden dare's, the page shows no form for it).
	const refuse = (code: string, dareId?: string) => {
		const error = translateError(t, code, locale)
		if (withData) return data<ModerationResult>({ ok: false, error })
		return redirectWithError(reporting && dareId ? reportFormHref(dareId, back) : at(dareId), error)
	}
	const submission = parseWithZod(formData, { schema: ModerationActionSchema })
	if (submission.status !== 'success') {
		// A report the browser let through (details of spaces only, an address Zod refuses) goes back to its form too.
		const dare = reporting ? DareIdSchema.safeParse(formData.get('dareId')) : null
		return refuse(invalidModeration(formData, submission.error ?? {}), dare?.success ? dare.data : undefined)
	}
	const action = submission.value

	let message: string
	let tone: 'success' | 'info' = 'success'
	let anchor: string | undefined
	try {
		const asViewer = statementsAsViewer(context)
		switch (action.intent) {
			case 'approve':
				await approveDare(asViewer, action.dareId)
				message = t('moderation.approved')
				anchor = action.dareId
				break
			case 'hide':
				await hideDare(asViewer, action.dareId)
				message = t('moderation.hidden')
				break
			case 'ban':
				await banViewer(asViewer, action.userId)
				message = t('moderation.banned')
				break
			case 'hold':
				await setHoldNewDares(asViewer, { sessionId: action.sessionId, hold: action.hold === 'on' })
				message = t(action.hold === 'on' ? 'moderation.hold-on' : 'moderation.hold-off')
				break
			case 'report': {
				anchor = action.dareId
				const input = { dareId: action.dareId, reason: action.reason, details: action.details, goodFaith: action.goodFaith === 'yes', language: locale }
				const { env, db, platform } = context.get(servicesContext)
				let taken: ReportTaken
				if (viewer) {
					taken = await reportDare(asViewer, input)
				} else {
					// A visitor names themselves (the database requires both too, and says which is missing).
					if (!action.name) return refuse('error-report-name-required', action.dareId)
					if (!action.email) return refuse('error-invalid-email', action.dareId)
					const allowed = visitorReportAllowed(request, env.TRUST_PROXY)
					if (!allowed.allowed) return refuse(`error-rate-limited:${allowed.retryAfterSeconds}`, action.dareId)
					taken = await reportDareAsVisitor(db, { ...input, name: action.name, email: action.email })
				}
				const reference = reportReference(taken.reportId)
				if (taken.replayed) {
					message = t('moderation.report-replayed', { reference })
					tone = 'info'
					break
				}
				message = t('moderation.report-received', { reference })
				// The receipt goes out beside the answer, to the account's address or
				// the one the visitor gave; a mail that fails is logged, the report stands.
				const email = action.email
				void (async () => {
					const to = viewer ? (viewer.email ?? (await accountEmail(db, viewer.userId))) : email
					if (to) await sendReportReceipt(platform.mail, to, locale, { reference, reason: action.reason })
				})().catch((error: unknown) => console.error(`report ${reference}: the receipt mail failed`, error))
				break
			}
		}
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) console.error(`moderation ${action.intent} failed`, error)
		return refuse(appError?.code ?? 'error-unknown', 'dareId' in action ? action.dareId : undefined)
	}
	if (withData) return data<ModerationResult>({ ok: true, message, tone })
	return (tone === 'info' ? redirectWithInfo : redirectWithSuccess)(at(anchor), message)
}

/** A signed-in reporter's address when the viewer does not carry it (the owner connection: auth.users is no API role's). */
async function accountEmail(db: Queryable, userId: string): Promise<string | null> {
	const { rows } = await db.query<{ email: string | null }>('select email::text as email from auth.users where id = $1', [userId])
	return rows[0]?.email ?? null
}
