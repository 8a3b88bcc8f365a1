import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'

/**
 * "By signing up / continuing you accept the terms and the privacy policy",
 * with both links opening in a new tab (spec section 2).
 */
export function TermsDisclaimer({ variant }: { variant: 'submit' | 'continue' }) {
	const { t } = useTranslation()
	const { lang = 'en' } = useParams()
	return (
		<p className="terms-disclaimer">
			{t(variant === 'submit' ? 'terms.disclaimer-1-submit' : 'terms.disclaimer-1-continue')}{' '}
			<a href={`/${lang}/terms`} target="_blank" rel="noopener">
				{t('terms.link-1')}
			</a>{' '}
			{t('terms.disclaimer-2')}{' '}
			<a href={`/${lang}/privacy`} target="_blank" rel="noopener">
				{t('terms.link-2')}
			</a>
			.
		</p>
	)
}
