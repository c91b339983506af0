/** A running count fed from a callback (bytes read by a reader), read by the progress bar. */
export class CountingStat {
  value = 0;
  add = (n: number): void => { this.value += n; };
}
