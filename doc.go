// Package pool provides Pool, a typed object pool with a per-P engine.
package pool
