/** Unix time in whole seconds, as D1 rows store it. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);
