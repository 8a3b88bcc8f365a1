import { useTranslation } from 'react-i18next'
import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/confirm'
import { ErrorList } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { safeRedirectPath } from '#app/utils/redirect'

/**
 * Where the sign-up mail's link and social sign-in land (spec section 2):
 * confirms the account, then shows the account-confirmed card with the way
 * back to the page the visitor started from (`redirect-to`).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
	const url = new URL(request.url)
	const home = `/${params.lang}`
	const continueTo = safeRedirectPath(url.searchParams.get('redirect-to'), home)
	// After Google or Twitch: an account with two-factor sign-in still owes its code.
	if (url.searchParams.get('totp') === 'required') {
		throw redirect(`/${params.lang}/login?${new URLSearchParams({ step: 'totp', redirectTo: continueTo })}`)
	}
	const providerError = url.searchParams.get('error')
	if (providerError?.startsWith('error-')) {
		return data({ confirmed: false as const, continueTo: home, error: providerError }, { status: 400 })
	}
	// A provider's own error (access_denied, Supabase's error_code...) is
	// read by the platform's service, which knows its vocabulary.
	const hasToken = ['token', 'code', 'token_hash', 'error'].some((k) => url.searchParams.has(k))
	if (!hasToken) {
		const confirmed = url.searchParams.get('confirmed') === '1'
		if (!confirmed && !context.get(viewerContext)) throw redirect(`/${params.lang}/login`)
		return { confirmed: true as const, continueTo, error: null }
	}
	const { accounts } = context.get(servicesContext).platform
	const result = await accounts.confirmEmail(request)
	if (!result.ok) {
		return data({ confirmed: false as const, continueTo: home, error: result.error.code }, { status: result.error.status, headers: result.headers })
	}
	// Reload without the token: the page (header included) then renders with
	// the new session, and the token leaves the address bar, history and Referer.
	// A two-factor account continues at the code step (Supabase sends it there).
	if (result.data.redirectTo.startsWith(`/${params.lang}/login?`)) {
		throw redirect(safeRedirectPath(result.data.redirectTo, `/${params.lang}/login`), { headers: result.headers })
	}
	const next = new URLSearchParams({ confirmed: '1', 'redirect-to': safeRedirectPath(result.data.redirectTo, continueTo) })
	throw redirect(`/${params.lang}/confirm?${next}`, { headers: result.headers })
}

export default function ConfirmPage({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	return (
		<div className="auth-page">
			<PageTitle title={t('pages.confirm.title')} />
			{loaderData.confirmed ? (
				<section className="card confirmed-card" aria-labelledby="confirmed-title">
					<h1 id="confirmed-title">{t('auth.email-confirmed-title')}</h1>
					<p>{t('auth.email-confirmed-subtitle')}</p>
					<div className="actions">
						{loaderData.continueTo !== `/${params.lang}` ? (
							<Link className="button button--primary" to={loaderData.continueTo}>
								{t('auth.email-confirmed-continue')}
							</Link>
						) : null}
						<Link className="button" to={`/${params.lang}`}>
							{t('auth.email-confirmed-to-home')}
						</Link>
					</div>
				</section>
			) : (
				<section className="card" aria-labelledby="confirm-failed">
					<h1 id="confirm-failed">{t('pages.confirm.title')}</h1>
					<ErrorList errors={loaderData.error ? [loaderData.error] : null} />
					<Link className="button" to={`/${params.lang}/register`}>
						{t('auth.sign-up')}
					</Link>
				</section>
			)}
		</div>
	)
}
