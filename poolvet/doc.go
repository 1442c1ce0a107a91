// Package poolvet defines an Analyzer that reports misuse of object pools.
//
// # Analyzer poolvet
//
// poolvet: report misuse of sync.Pool, pool.Pool and bytepool
//
// Pooling trades allocation for a contract: an object handed back to a pool
// belongs to the pool, and the next Get may hand it to another goroutine.
// Breaking the contract corrupts data silently, so poolvet looks for the
// mistakes that break it. It recognises these pools:
//
//   - sync.Pool (Get, Put);
//   - github.com/poolkit/pool.Pool[T] (Get, Put, and the Reset and Keep hooks);
//   - github.com/poolkit/pool/bytepool (Get, Zeroed, Put, Pool.Get, Pool.Put,
//     GetBuffer, Pool.GetBuffer and Buffer.Free; Free of a Buffer of the
//     caller's own, a variable or a field, gives back only its storage, and
//     the Buffer may be used again);
//   - wrappers: a function or method that puts one of its parameters into a
//     pool, or calls another such wrapper, is itself a Put; one that returns
//     an object it took from a pool is a Get. Wrappers are exported as facts,
//     so helpers such as releaseBuffer(buf) in another package count too.
//     A wrapper that puts on some paths only is a conditional Put; a method
//     that puts a field of its receiver and leaves it set (a Close) puts
//     that field again when called twice.
//
// Each diagnostic carries the name of its check as its Category, and its
// message ends with that name in parentheses, "(useafterput)", so that the
// flag that turns it off can be read off the line:
//
//   - useafterput: an object, or a value that shares its memory (a sub-slice,
//     buf.Bytes(), *p of a pooled *[]byte, a closure that captured it), is
//     used after the object went back to the pool on some path. With a
//     deferred Put the report is at the return statement that leaks the
//     alias. A Put is reported too when the object was handed to a
//     goroutine, sent on a channel, given to net/http's transport in a
//     request (which may read the body after Do returns), passed to a
//     function that does one of these, or stored in a package-level
//     variable, a field of the receiver or a variable captured from the
//     enclosing function earlier on a path with no channel receive, select
//     case (other than a context's Done or a timer), or Wait/Lock/Do-style
//     call between the hand-off and the Put.
//     A deferred call that uses the object and was deferred before its Put
//     runs after the Put, and is reported too, and so is a slice whose
//     elements a loop put back when it is used after the loop. Also: a call
//     that keeps the object, or memory of it, in a map (the callee, or one
//     it calls, stores it there; a pointer only when on every path), before
//     the Put; the object stored in the Body of a caller's *http.Request
//     or *http.Response with a deferred Put pending; and a method called
//     on what a field holds after a call that may have put that object
//     and left the field set, unless the caller looks at the call's bool
//     result; a Put, in a callback run once per element, of an object the
//     callback took from a pool into a captured variable only when that
//     variable was nil, leaving it set (the next run uses the old one).
//     Functions of the package that keep an argument (a constructor
//     returning a struct that holds it, a method storing it in its
//     receiver, or calling such a method on its receiver or a field of it)
//     make their result or receiver an alias of it. A pooled object in a
//     named result is returned past a deferred Put like any other. Also: a
//     use of an object after close(x.done), when a function of the package
//     waits on such a channel and then puts the object back; and a method
//     that puts the elements of a slice field back and leaves them there
//     while another method reads them. Also: a Read method that puts its
//     own receiver back into a pool (its caller still holds the reader); an
//     unsafe string over pooled bytes kept by a sync.Map; in a method of a
//     pooled type, a view of the receiver's own buffer handed to memory that
//     outlives the call; and a view of the object stored into a field of a
//     struct the function returns, before the object's Put. A Put
//     guarded by a size check against a constant, a package-level variable
//     or a setting named as a bound (MaxPooled, limit) counts as a Put.
//   - doubleput: the same object is put twice on one path, including a Put in
//     a loop body of an object defined outside it, an explicit Put of an
//     object whose Put is already deferred, a Put after a call (or a
//     Close) that puts it on some paths, a Put of an object that a
//     goroutine started before puts back itself, two methods that put a
//     field unless a closed flag is set when the first does not set it, and
//     a Close that puts memory its receiver keeps and changes nothing else
//     (a second Close puts it again), a field of a loop-invariant base put
//     on every iteration, a Put of what a getter returned when it may
//     return a cached field of its receiver, and an object put back and
//     then stored in a struct whose type has a method (a Close) that puts
//     that field.
//   - nonpointer: a value that is not pointer-shaped is put into a pool that
//     stores interfaces (sync.Pool, or a wrapper taking any): converting it
//     allocates on every Put (staticcheck SA6002).
//   - noreset: an object whose type has a Reset method is taken from a pool
//     and put back in the same function without ever being reset, and the
//     pool has no Reset hook: state leaks from one user to the next. Also a
//     Put into a sync.Pool of a struct that leaves set a field of basic type
//     that the pool's users read before writing (a sequence number that
//     goes on from the previous user's); a struct or map decoded into
//     without clearing; a field in which a user stored what it was passed
//     (a context, a reader, a value; or the writer given to a bufio or
//     compress Reset), left set; a flag or a caller's value that some
//     users set on what Get (or a getter) returned, and others do not,
//     left set by a Put path or a getter that clears or sets other fields
//     one by one; a slice of pointers truncated without clearing its
//     elements, or filled by appends and put back as it is; a slice of
//     structs truncated without clearing whose elements users build from
//     views of their input; a helper that re-slices a pooled slice one past
//     its length and fills the uncovered element field by field; a
//     strings.Builder put back after its last write without Reset; an
//     object with Reset put back in one function after it was got in
//     another, reset in neither; a pooled slice whose element was set to
//     a value the caller passed, put back uncleared; a gzip.Reader Reset
//     onto a reader over the caller's bytes and put back without zeroing
//     (it holds the whole payload); a Put reached only where the
//     Reset(nil) meant to clean the object failed; a *[]byte getter
//     that hands out dirty buffers while another getter of the package
//     clears them; a Reset that clears by other means than field stores
//     and forgets a number a method keeps as state; an empty Reset that
//     shadows an embedded type's Reset; a reset of a type kept as a field of
//     pooled objects that forgets a flag other code sets and tests; x.f =
//     x.f[:] (a re-slice that keeps every element) on a pooled type; a
//     slice put back holding what was appended since the Get, on some
//     path, into a pool whose users append to what they get; a []byte put
//     back cut to a copy's or a read's length into a pool whose users copy
//     or read into what they get; a channel put back after it was closed;
//     a queue channel put back when nothing in the package ever drains one;
//     a reset that sets what a lazily filled cache is computed from but
//     keeps the cache; a Reset that clears the object's state but not an
//     exported option its users set; an init/reset/clear function that
//     zeroes four or more fields of a pooled object but not one that other
//     code sets and reads; a set-like map field (to struct{} or bool)
//     added to during use and never emptied; a reset that sets one atomic
//     state flag of its type back but not another; and, before Go 1.23, a
//     *time.Timer armed with Reset and put back without draining C.
//   - unbounded: a growable buffer (*bytes.Buffer, *strings.Builder, []byte,
//     *[]T, a slice of slices, a struct whose bytes.Buffer or []byte field
//     its users grow, a map filled in a loop) is put into a sync.Pool or a
//     pool.Pool without a Keep hook, with no capacity check on the buffer:
//     one huge buffer then stays pinned in the pool (golang/go#23199). A
//     suggested fix wraps the Put in a capacity guard. A buffer sent back
//     to a channel pool (a non-blocking send to a channel the package
//     drains with a non-blocking receive) counts too, and so does a []byte
//     a caller hands to such a pool's Put with no check of its capacity,
//     and a buffer an allocator grew to the size asked for, put back by a
//     Free that only picks the pool by size.
//   - typemismatch: the result of a sync.Pool's Get is asserted to a type that
//     the pool's New never returns, or a value of another type than New's is
//     put into it, or asserted without comma-ok or nil check when the pool
//     never gets a New or its New can return nil (Get returns nil then:
//     the assertion panics). A Get through an interface of the package that
//     only package-level sync.Pools fill is judged against their New.
//     After a Put of an unexpected type, the Gets of that pool whose
//     assertions would panic on it are reported too.
//
// Each check can be turned off with a flag of its name, for example
// -useafterput=false.
//
// The analyzer prefers precision: when it cannot tell whether code is wrong,
// it says nothing.
package poolvet
