import { useTranslation } from '#app/i18n/translation'
import { useParams } from 'react-router'
import { DEFAULT_LOCALE, isLocale } from '#app/i18n/locales'

/**
 * "By signing up / continuing you accept the terms and the privacy policy"
 * (docs/product.md §10.5; keys terms.disclaimer-1-submit or -continue, link-1,
 * disclaimer-2, link-2), both links to the page's language and opening in a
 * new tab, which screen readers are told.
 */
export function TermsDisclaimer({ variant }: { variant: 'submit' | 'continue' }) {
	const { t } = useTranslation()
	const { lang } = useParams()
	const locale = isLocale(lang) ? lang : DEFAULT_LOCALE
	const newTab = <span className="visually-hidden"> {t('terms.new-tab')}</span>
	return (
		<p className="terms-disclaimer">
			{t(variant === 'submit' ? 'terms.disclaimer-1-submit' : 'terms.disclaimer-1-continue')}{' '}
			<a href={`/${locale}/terms`} target="_blank" rel="noopener">
				{t('terms.link-1')}
				{newTab}
			</a>{' '}
			{t('terms.disclaimer-2')}{' '}
			<a href={`/${locale}/privacy`} target="_blank" rel="noopener">
				{t('terms.link-2')}
				{newTab}
			</a>
			.
		</p>
	)
}
