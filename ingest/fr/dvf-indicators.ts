import { MARKET_INDICATOR_COLUMNS, RELIABILITY_THRESHOLDS } from '../../schemas/tables/market-indicators.ts';

/** Zone levels of the indicators and the sales column holding each one's code, finest first. */
export const INDICATOR_LEVELS = [
  ['sublocality_level2', 'iris_code'],
  ['sublocality_level1', 'arrondissement_code'],
  ['locality', 'commune_code'],
  ['administrative_area_level2', 'department_code'],
  ['administrative_area_level1', 'region_code'],
] as const;

/**
 * market_indicators from a relation of sales rows, computed by DuckDB: for every zone of every
 * level and each property type (apartment, house), the median price per m² with its quartiles
 * (continuous quantiles) over the 24 months ending at the end of the month of the latest sale,
 * per calendar year and per calendar quarter (a period ends at the latest sale's month at most).
 * Series changes compare published points only (sample of RELIABILITY_THRESHOLDS.low or more).
 */
export function indicatorsSelect(sales: string): string {
  const low = RELIABILITY_THRESHOLDS.low;
  const perZone = INDICATOR_LEVELS.map(([level, col]) => `SELECT '${level}' AS level, ${col} AS code, property_type, date, price_per_m2 FROM s WHERE ${col} IS NOT NULL`).join('\n      UNION ALL ');
  const stats = `count(*)::INTEGER AS sample_size, quantile_cont(price_per_m2, 0.5) AS median, quantile_cont(price_per_m2, 0.25) AS q1, quantile_cont(price_per_m2, 0.75) AS q3`;
  const reliability = `CASE WHEN sample_size >= ${RELIABILITY_THRESHOLDS.high} THEN 'high' WHEN sample_size >= ${RELIABILITY_THRESHOLDS.medium} THEN 'medium' WHEN sample_size >= ${low} THEN 'low' END`;
  return `WITH s AS (SELECT * FROM ${sales} WHERE price_per_m2 IS NOT NULL AND property_type IN ('apartment', 'house')),
    b AS (SELECT last_day(max(date)) AS data_end FROM s),
    z AS (${perZone}),
    w AS (SELECT level, code, property_type, '24m' AS period, CAST(b.data_end - INTERVAL 24 MONTH + INTERVAL 1 DAY AS DATE) AS period_start, b.data_end AS period_end, ${stats}
      FROM z, b WHERE z.date > b.data_end - INTERVAL 24 MONTH GROUP BY level, code, property_type, b.data_end),
    y AS (SELECT level, code, property_type, 'year' AS period, CAST(date_trunc('year', date) AS DATE) AS period_start,
      least(CAST(date_trunc('year', date) + INTERVAL 1 YEAR - INTERVAL 1 DAY AS DATE), any_value(b.data_end)) AS period_end, ${stats}
      FROM z, b GROUP BY level, code, property_type, date_trunc('year', date)),
    q AS (SELECT level, code, property_type, 'quarter' AS period, CAST(date_trunc('quarter', date) AS DATE) AS period_start,
      least(CAST(date_trunc('quarter', date) + INTERVAL 3 MONTH - INTERVAL 1 DAY AS DATE), any_value(b.data_end)) AS period_end, ${stats}
      FROM z, b GROUP BY level, code, property_type, date_trunc('quarter', date)),
    series AS (SELECT * FROM y UNION ALL SELECT * FROM q),
    published AS (SELECT *, first_value(median) OVER (PARTITION BY level, code, property_type, period ORDER BY period_start) AS first_median
      FROM series WHERE sample_size >= ${low}),
    changes AS (SELECT p.level, p.code, p.property_type, p.period, p.period_start,
      100 * (p.median / p1.median - 1) AS change_1y, 100 * (p.median / p5.median - 1) AS change_5y,
      CASE WHEN p.period_start > (SELECT min(period_start) FROM published f WHERE f.level = p.level AND f.code = p.code AND f.property_type = p.property_type AND f.period = p.period)
        THEN 100 * (p.median / p.first_median - 1) END AS change_since_start
      FROM published p
      LEFT JOIN published p1 ON p1.level = p.level AND p1.code = p.code AND p1.property_type = p.property_type AND p1.period = p.period AND p1.period_start = p.period_start - INTERVAL 1 YEAR
      LEFT JOIN published p5 ON p5.level = p.level AND p5.code = p.code AND p5.property_type = p.property_type AND p5.period = p.period AND p5.period_start = p.period_start - INTERVAL 5 YEAR),
    rows AS (SELECT w.*, CAST(NULL AS DOUBLE) AS change_1y, CAST(NULL AS DOUBLE) AS change_5y, CAST(NULL AS DOUBLE) AS change_since_start FROM w
      UNION ALL SELECT s.*, c.change_1y, c.change_5y, c.change_since_start FROM series s
      LEFT JOIN changes c USING (level, code, property_type, period, period_start))
    SELECT ${Object.entries(MARKET_INDICATOR_COLUMNS).map(([k, t]) => k === 'reliability' ? `CAST(${reliability} AS VARCHAR) AS reliability` : `CAST(${k} AS ${t}) AS ${k}`).join(', ')}
    FROM rows`;
}
