import { useTranslation } from '#app/i18n/translation'
import { data } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import type { Route } from './+types/route'
import { DeleteAccount } from '#app/modules/account/delete-account'
import { translateError } from '#app/i18n/errors'
import { PageTitle } from '#app/components/page-title'
import { servicesContext } from '#app/context.server'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { connectablePlatforms } from '#app/modules/channels/connect.server'
import { LinkedChannels } from '#app/modules/sessions/linked-channels'
import { getLinkedChannels } from '#app/modules/sessions/service.server'
import { PurchaseHistory } from '#app/modules/shop/purchase-history'
import { readPurchaseHistory } from '#app/modules/shop/service.server'
import sessionsStylesHref from '#app/styles/sessions.css?url'
import shopStylesHref from '#app/styles/shop.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'
import { queryAsViewer } from '#app/utils/db.server'
import { LanguageSection } from './language'
import { ProfileSection, USERNAME_INTENT } from '#app/modules/account/settings/profile'
import { saveUsername } from '#app/modules/account/settings/profile.server'
import { LINK_INTENT, PROVIDER_NAMES, SignInMethodsSection, UNLINK_INTENT } from '#app/modules/account/settings/sign-in-methods'
import { changeSignInMethod } from '#app/modules/account/settings/sign-in-methods.server'
import { TOTP_CONFIRM_INTENT, TOTP_DISABLE_INTENT, TOTP_ENROLL_INTENT, TwoFactorSection } from '#app/modules/account/settings/two-factor'
import { changeTwoFactor } from '#app/modules/account/settings/two-factor.server'
import { BLOCKED_TERMS_INTENT, CreatorModerationSections, RestrictionsNotice, UNBAN_INTENT } from '#app/modules/moderation/settings-section'
import { readModerationSettings, saveBlockedTerms, unbanViewer } from '#app/modules/moderation/settings.server'

export const handle: StylesheetsHandle = { stylesheets: [sessionsStylesHref, shopStylesHref] }

export async function loader({ request, context, params }: Route.LoaderArgs) {
	const viewer = requireViewer(request, context)
	const { platform: { accounts }, env } = context.get(servicesContext)
	const here = `/${params.lang}/settings`
	if (new URL(request.url).searchParams.has('link')) {
		// Back from connecting a provider (see app/modules/account/settings/sign-in-methods.server.ts): say how it went, on a clean URL.
		const t = getInstance(context).t
		const result = await accounts.finishLink(request)
		return result.ok
			? redirectWithSuccess(here, t('settings.method-connected', { provider: PROVIDER_NAMES[result.data.provider] }), { headers: result.headers })
			: redirectWithError(here, translateError(t, result.error.code), { headers: result.headers })
	}
	const methods = await accounts.listSignInMethods(request)
	const { username, channels, purchases, moderation } = await queryAsViewer(context, async (tx) => {
		const { rows } = await tx.query<{ username: string }>('select username from public.profiles where id = auth.uid()')
		const channels = await getLinkedChannels(tx)
		return {
			username: rows[0]?.username ?? null,
			channels,
			purchases: await readPurchaseHistory(tx),
			moderation: await readModerationSettings(tx, channels.length > 0),
		}
	})
	return data(
		{
			email: viewer.email,
			username,
			channels,
			purchases,
			moderation,
			totpEnabled: viewer.totpEnabled ?? viewer.claims.aal === 'aal2',
			// A failure to list them leaves the section out rather than the page.
			methods: methods.ok ? methods.data.methods : null,
			connectable: methods.ok ? methods.data.connectable : [],
			channelPlatforms: connectablePlatforms(env),
		},
		{ headers: methods.headers },
	)
}

/** Each form names itself with its submit button's intent and has its own schema (see the section files in app/modules/account/settings). */
export async function action({ request, context, params }: Route.ActionArgs) {
	requireViewer(request, context)
	const formData = await request.formData()
	const intent = String(formData.get('intent') ?? '')
	const here = `/${params.lang}/settings`
	switch (intent) {
		case USERNAME_INTENT:
			return saveUsername(formData, context, here)
		case LINK_INTENT:
		case UNLINK_INTENT:
			return changeSignInMethod(request, formData, context, { here, intent, locale: params.lang as Locale })
		case TOTP_ENROLL_INTENT:
		case TOTP_DISABLE_INTENT:
		case TOTP_CONFIRM_INTENT:
			return changeTwoFactor(request, formData, context, { here, intent })
		case BLOCKED_TERMS_INTENT:
			return saveBlockedTerms(formData, context, here)
		case UNBAN_INTENT:
			return unbanViewer(formData, context, here)
		default:
			throw data(null, { status: 400 })
	}
}

export default function SettingsPage({ loaderData, actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const here = `/${params.lang}/settings`
	return (
		<div className="settings">
			<PageTitle title={t('pages.settings.title')} />
			<h1>{t('pages.settings.title')}</h1>
			<RestrictionsNotice restrictions={loaderData.moderation.restrictions} />
			<ProfileSection
				email={loaderData.email}
				username={loaderData.username}
				lastResult={actionData?.intent === USERNAME_INTENT ? actionData.result : null}
			/>
			{loaderData.methods ? <SignInMethodsSection methods={loaderData.methods} connectable={loaderData.connectable} /> : null}
			<TwoFactorSection
				enabled={loaderData.totpEnabled}
				setup={actionData?.setup ?? null}
				lastResult={actionData && actionData.intent !== USERNAME_INTENT ? actionData : null}
			/>
			<LinkedChannels channels={loaderData.channels} connectable={loaderData.channelPlatforms} lang={params.lang as Locale} />
			<CreatorModerationSections
				settings={loaderData.moderation}
				locale={params.lang as Locale}
				lastResult={actionData?.intent === BLOCKED_TERMS_INTENT ? actionData.result : null}
			/>
			<PurchaseHistory locale={params.lang as Locale} purchases={loaderData.purchases} className="card settings__section purchase-history" />
			<LanguageSection locale={params.lang as Locale} />
			<section className="card settings__section" aria-labelledby="settings-danger">
				<h2 id="settings-danger">{t('settings.danger-title')}</h2>
				<p className="settings__lead">{t('settings.danger-description')}</p>
				<DeleteAccount back={here} />
			</section>
		</div>
	)
}
