import { useTranslation } from '#app/i18n/translation'
import { data, Form, Link, redirect } from 'react-router'
import type { Route } from './+types/confirm'
import { ErrorList, SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import { servicesContext, viewerContext } from '#app/context.server'
import { safeRedirectPath } from '#app/utils/redirect'

/**
 * Where the sign-up mail's link and social sign-in land (docs/product.md §3.1).
 *
 * A mail link's GET only shows a card with one button: mail scanners fetch
 * links before their reader does, and a link on another site could sign a
 * visitor's browser into someone else's account. The button's POST (same
 * origin, checked by the middleware) confirms and signs in. A provider's
 * return (`code`, or Better Auth's session already set) stays a GET: the
 * OAuth state and PKCE verifier bind it to the browser that started it.
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
		return data({ state: 'failed' as const, continueTo: home, error: providerError }, { status: 400 })
	}
	if (url.searchParams.has('token') || url.searchParams.has('token_hash')) {
		return { state: 'pending' as const, continueTo, error: null }
	}
	if (url.searchParams.has('code') || url.searchParams.has('error')) return confirm(request, context, params.lang)
	const confirmed = url.searchParams.get('confirmed') === '1'
	// Confirmed by a link opened in a browser that did not sign the address up: nobody signed in here.
	if (confirmed && url.searchParams.get('sign-in') === '1') return { state: 'confirmed-sign-in' as const, continueTo, error: null }
	if (!confirmed && !context.get(viewerContext)) throw redirect(`/${params.lang}/login`)
	return { state: 'confirmed' as const, continueTo, error: null }
}

/** The confirm card's button: the link's query is this request's. */
export function action({ request, context, params }: Route.ActionArgs) {
	return confirm(request, context, params.lang)
}

async function confirm(request: Request, context: Route.LoaderArgs['context'], lang: string) {
	const { accounts } = context.get(servicesContext).platform
	const result = await accounts.confirmEmail(request)
	if (!result.ok) {
		return data(
			{ state: 'failed' as const, continueTo: `/${lang}`, error: result.error.code },
			{ status: result.error.status, headers: result.headers },
		)
	}
	// Reload without the token: the page (header included) then renders with
	// the new session, and the token leaves the address bar, history and Referer.
	// A two-factor account continues at the code step (Supabase sends it there).
	if (result.data.redirectTo.startsWith(`/${lang}/login?`)) {
		throw redirect(safeRedirectPath(result.data.redirectTo, `/${lang}/login`), { headers: result.headers })
	}
	const continueTo = safeRedirectPath(new URL(request.url).searchParams.get('redirect-to'), `/${lang}`)
	const next = new URLSearchParams({ confirmed: '1', 'redirect-to': safeRedirectPath(result.data.redirectTo, continueTo) })
	if (!result.data.signedIn) next.set('sign-in', '1')
	throw redirect(`/${lang}/confirm?${next}`, { headers: result.headers })
}

export default function ConfirmPage({ loaderData, actionData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const view = actionData ?? loaderData
	return (
		<div className="auth-page">
			<PageTitle title={t('pages.confirm.title')} />
			{view.state === 'confirmed' ? (
				<section className="card confirmed-card" aria-labelledby="confirmed-title">
					<h1 id="confirmed-title">{t('auth.email-confirmed-title')}</h1>
					<p>{t('auth.email-confirmed-subtitle')}</p>
					<div className="actions">
						{view.continueTo !== `/${params.lang}` ? (
							<Link className="button button--primary" to={view.continueTo}>
								{t('auth.email-confirmed-continue')}
							</Link>
						) : null}
						<Link className="button" to={`/${params.lang}`}>
							{t('auth.email-confirmed-to-home')}
						</Link>
					</div>
				</section>
			) : view.state === 'confirmed-sign-in' ? (
				<section className="card confirmed-card" aria-labelledby="confirmed-title">
					<h1 id="confirmed-title">{t('auth.email-confirmed-title')}</h1>
					<p>{t('auth.email-confirmed-sign-in')}</p>
					<div className="actions">
						<Link className="button button--primary" to={`/${params.lang}/login?${new URLSearchParams({ redirectTo: view.continueTo })}`}>
							{t('auth.sign-in')}
						</Link>
						<Link className="button" to={`/${params.lang}/password-reset`}>
							{t('auth.email-confirmed-new-password')}
						</Link>
					</div>
				</section>
			) : view.state === 'pending' ? (
				<section className="card" aria-labelledby="confirm-pending">
					<h1 id="confirm-pending">{t('auth.email-confirm-pending-title')}</h1>
					<p>{t('auth.email-confirm-pending-description')}</p>
					<Form method="post" className="actions">
						<SubmitButton intent="confirm" className="button button--primary">
							{t('auth.email-confirm-button')}
						</SubmitButton>
					</Form>
				</section>
			) : (
				<section className="card" aria-labelledby="confirm-failed">
					<h1 id="confirm-failed">{t('pages.confirm.title')}</h1>
					<ErrorList errors={view.error ? [view.error] : null} />
					{view.error === 'error-invalid-token' ? (
						// An expired or used link: the way to a new one, right here.
						<Form method="post" action={`/${params.lang}/register`} className="stack">
							<p>{t('auth.email-confirm-expired')}</p>
							<input type="hidden" name="redirectTo" value={view.continueTo} />
							<div className="field">
								<label htmlFor="confirm-resend-email">{t('auth.email')}</label>
								<input id="confirm-resend-email" name="email" type="email" autoComplete="email" maxLength={100} required />
							</div>
							<SubmitButton intent="resend" className="button button--primary">
								{t('auth.email-confirm-resend')}
							</SubmitButton>
						</Form>
					) : (
						<Link className="button" to={`/${params.lang}/register`}>
							{t('auth.sign-up')}
						</Link>
					)}
				</section>
			)}
		</div>
	)
}
