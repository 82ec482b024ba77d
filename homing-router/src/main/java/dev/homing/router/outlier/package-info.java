/** Which endpoints are left out of the candidates for a while because their requests keep failing. */
package dev.homing.router.outlier;
