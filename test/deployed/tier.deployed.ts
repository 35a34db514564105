// The deployed tier's cases, in the order they must run: one stack serves them all, and the first must find its
// ledger as a fresh deployment leaves it (no import has used it yet).
import './cases/empty-object.js';
import './cases/bad-rows.js';
import './cases/watched-prefix.js';
import './cases/special-keys-start.js';
import './cases/second-bucket.js';
import './cases/failing-chunk.js';
import './cases/live-settings.js';
import './cases/grants.js';
import './cases/mirror.js';
