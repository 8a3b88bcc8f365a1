import { Form, Link } from 'react-router'
import type { Route } from './+types/earnings-test-onboarding'
import { SubmitButton } from '#app/components/forms'
import { PageTitle } from '#app/components/page-title'
import type { Locale } from '#app/i18n/locales'
import { useTranslation } from '#app/i18n/translation'
import { loadTestOnboarding, testOnboardingAction } from '#app/modules/payouts/earnings.server'
import earningsStylesHref from '#app/styles/earnings.css?url'
import type { StylesheetsHandle } from '#app/styles/stylesheets'

export const handle: StylesheetsHandle = { stylesheets: [earningsStylesHref] }

/**
 * /{lang}/earnings/test-onboarding: the test payout provider's stand-in for
 * the payment provider's onboarding pages (only while test payouts are on,
 * docs/product.md §14). One plain form: the account's country, and done.
 */
export function loader({ request, context, params }: Route.LoaderArgs) {
	return loadTestOnboarding(request, context, params.lang as Locale)
}

export function action({ request, context, params }: Route.ActionArgs) {
	return testOnboardingAction(request, context, params.lang as Locale)
}

export default function TestOnboardingRoute({ loaderData, params }: Route.ComponentProps) {
	const { t } = useTranslation()
	const lang = params.lang as Locale
	return (
		<div className="narrow-page earnings-test">
			<PageTitle title={t('earnings.test-onboarding-title')} noindex />
			<h1>{t('earnings.test-onboarding-title')}</h1>
			<p className="earnings-notice earnings-notice--test" role="note">
				<strong>{t('earnings.test-title')}</strong> {t('earnings.test-onboarding-body')}
			</p>
			<Form method="post" className="card stack">
				<div className="field">
					<label htmlFor="test-country">{t('earnings.account-country-label')}</label>
					<select id="test-country" name="country" defaultValue={loaderData.country ?? undefined} required>
						{loaderData.countries.map(({ code, name }) => (
							<option key={code} value={code}>
								{name}
							</option>
						))}
					</select>
				</div>
				<div className="actions">
					<SubmitButton>{t('earnings.test-onboarding-submit')}</SubmitButton>
					<Link className="button button--ghost" to={`/${lang}/earnings`}>
						{t('earnings.test-onboarding-cancel')}
					</Link>
				</div>
			</Form>
		</div>
	)
}
