import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { servicesContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { startChannelConnect } from '#app/modules/channels/connect.server'
import { isChannelPlatform } from '#app/modules/channels/platforms'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { queryAsViewer } from '#app/utils/db.server'
import { refusalStatus } from '#app/utils/refusal.server'
import { safeRedirectPath } from '#app/utils/redirect'
import { translateError } from '#app/i18n/errors'
import { StartSessionSchema, UnlinkChannelSchema } from './schemas'
import {
	acceptCreatorAgreement,
	getLinkedChannels,
	linkTwitchChannel,
	startSession,
	stopActiveSession,
	unlinkChannel,
} from './service.server'
import type { StartSessionActionData } from './start-session-form'

type Ctx = Readonly<RouterContextProvider>

/**
 * POST /{lang}/start-session, from the dialog (a fetcher) and the page (a
 * form, without JavaScript). Rejected input answers 400 with the submission
 * (the agreement's box left unticked included); a rule of the database (not
 * a creator, no channel on the platform, the creator agreement, one live
 * session) 409 with its error code. The form shows the creator agreement's
 * box to a creator who owes it (the route's loader reads that); sent with
 * acceptAgreement=accept it records the agreement (give_consent) and starts
 * the session in one transaction. A missing agreement the form did not ask
 * for (a version published meanwhile) is answered with needsAgreement, which
 * shows the box. Success lands on the channel's page.
 */
export async function startSessionAction(request: Request, context: Ctx, lang: Locale) {
	requireViewer(request, context)
	const { t } = getInstance(context)
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: StartSessionSchema })
	if (submission.status !== 'success') {
		return data<StartSessionActionData>({ result: submission.reply(), needsAgreement: false }, { status: refusalStatus(request, 400) })
	}
	const input = submission.value
	try {
		const session = await queryAsViewer(context, async (tx) => {
			const channels = await getLinkedChannels(tx)
			if (input.acceptAgreement === 'accept') await acceptCreatorAgreement(tx, currentDocumentVersions().creator_agreement)
			// The channel is the creator's own on that platform; create_session
			// checks it again (and names the refusal when there is none).
			const channel = channels.find((c) => c.platform === input.platform)?.channel ?? ''
			return startSession(tx, input, channel)
		})
		return redirectWithSuccess(`/${lang}/${session.platform}/${encodeURIComponent(session.channel)}`, t('sessions.started'))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) {
			// 'Failed to start session' (docs/product.md §12.2): the details go to the log only.
			console.error('start session failed', error)
			return data<StartSessionActionData>({ result: submission.reply({ formErrors: ['error-start-session-failed'] }), needsAgreement: false }, { status: 500 })
		}
		return data<StartSessionActionData>(
			{ result: submission.reply({ formErrors: [appError.code] }), needsAgreement: appError.code === 'error-creator-agreement-required' },
			{ status: refusalStatus(request, 409) },
		)
	}
}

/** POST intent=stop on a session page: the viewer stops their live session and stays on the page. */
export async function stopSessionAction(request: Request, context: Ctx, formData: FormData) {
	requireViewer(request, context)
	const { t } = getInstance(context)
	const url = new URL(request.url)
	const back = url.pathname
	if (formData.get('intent') !== 'stop') throw data(null, { status: 400 })
	// Stopping refunds the open dares: a money call, with the form's key (checked by the database).
	const key = formData.get('key')
	if (typeof key !== 'string') return redirectWithError(back, translateError(t, 'error-invalid-idempotency-key'))
	try {
		await queryAsViewer(context, (tx) => stopActiveSession(tx, key))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) console.error('stop session failed', error)
		return redirectWithError(back, translateError(t, appError?.code ?? 'error-stop-session-failed'))
	}
	return redirectWithSuccess(back, t('sessions.stopped'))
}

/** POST /{lang}/settings/channels: link the Twitch channel of the viewer's Twitch sign-in, or unlink a channel. */
export async function channelsAction(request: Request, context: Ctx, lang: Locale) {
	requireViewer(request, context)
	const { t } = getInstance(context)
	const formData = await request.formData()
	const back = safeRedirectPath(formData.get('redirectTo'), `/${lang}/settings/channels`)
	const intent = formData.get('intent')
	try {
		if (intent === 'connect') {
			const platform = formData.get('platform')
			if (!isChannelPlatform(platform)) return redirectWithError(back, t('errors.error-invalid-platform'))
			return startChannelConnect(request, context, lang, platform, back)
		}
		if (intent === 'link-twitch') {
			// Without Twitch sign-in nobody has a Twitch identity to link it from (the page does not offer it then).
			if (!context.get(servicesContext).platform.accounts.oauthProviders.includes('twitch')) {
				return redirectWithError(back, t('errors.error-channel-connect-unavailable'))
			}
			await queryAsViewer(context, (tx) => linkTwitchChannel(tx))
			return redirectWithSuccess(back, t('channels.linked'))
		}
		if (intent === 'unlink') {
			const parsed = UnlinkChannelSchema.safeParse({ platform: formData.get('platform') })
			if (!parsed.success) return redirectWithError(back, t('errors.error-invalid-platform'))
			await queryAsViewer(context, (tx) => unlinkChannel(tx, parsed.data.platform))
			return redirectWithSuccess(back, t('channels.unlinked'))
		}
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) throw error
		return redirectWithError(back, translateError(t, appError.code))
	}
	throw data(null, { status: 400 })
}
