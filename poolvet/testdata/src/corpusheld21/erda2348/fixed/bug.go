// Package bug is the fixed twin of erda-project/erda#2348
// (https://github.com/erda-project/erda/pull/2348): the post-receive hook no
// longer reads the pooled echo context; it uses the user and repository that
// were copied into the wrapper while the request was still being served.
// Check: useafterput (clean).
package bug

import (
	"io"
	"log"
	"net/http"
	"sync"
)

// ---- minimal echo ----

type EchoContext interface {
	Get(key string) any
	Set(key string, val any)
	Response() http.ResponseWriter
	Request() *http.Request
}

type HandlerFunc func(EchoContext) error

type echoContext struct {
	request  *http.Request
	response http.ResponseWriter
	store    map[string]any
	lock     sync.RWMutex
}

func (c *echoContext) Get(key string) any {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.store[key]
}

func (c *echoContext) Set(key string, val any) {
	c.lock.Lock()
	defer c.lock.Unlock()
	if c.store == nil {
		c.store = make(map[string]any)
	}
	c.store[key] = val
}

func (c *echoContext) Response() http.ResponseWriter { return c.response }
func (c *echoContext) Request() *http.Request        { return c.request }

func (c *echoContext) reset(r *http.Request, w http.ResponseWriter) {
	c.request = r
	c.response = w
	c.store = nil
}

type Echo struct {
	pool       sync.Pool
	handler    HandlerFunc
	middleware func(EchoContext)
}

func NewEcho(h HandlerFunc, mw func(EchoContext)) *Echo {
	e := &Echo{handler: h, middleware: mw}
	e.pool.New = func() any { return new(echoContext) }
	return e
}

func (e *Echo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := e.pool.Get().(*echoContext)
	c.reset(r, w)

	e.middleware(c)
	if err := e.handler(c); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}

	c.reset(nil, nil)
	e.pool.Put(c)
}

// ---- gittar webcontext ----

type User struct{ Name, Email string }

type Repository struct {
	ID   int64
	Path string
}

type Service struct{}

func (s *Service) UpdateRepoSizeCache(repoID int64, size int64) {}

type Context struct {
	EchoContext EchoContext
	Repository  *Repository
	User        *User
	Service     *Service
}

func (c *Context) MustGet(key string) any {
	v := c.EchoContext.Get(key)
	if v == nil {
		panic("key " + key + " does not exist")
	}
	return v
}

func NewEchoContext(c EchoContext) *Context {
	repository, _ := c.Get("repository").(*Repository)
	if repository == nil {
		repository = &Repository{}
	}
	user, _ := c.Get("user").(*User)
	return &Context{EchoContext: c, Repository: repository, User: user, Service: &Service{}}
}

func WrapHandler(h func(*Context)) HandlerFunc {
	return func(c EchoContext) error {
		h(NewEchoContext(c))
		return nil
	}
}

// ---- helper ----

type PayloadPushEvent struct {
	Before, After, Ref string
	Pusher             *User
}

// PostReceiveHook triggers the push events.
func PostReceiveHook(pushEvents []*PayloadPushEvent, c *Context) {
	pusher := c.User
	repository := c.Repository

	c.Service.UpdateRepoSizeCache(repository.ID, int64(len(pushEvents)))
	for _, ev := range pushEvents {
		log.Printf("push %s by %s to %s", ev.Ref, pusher.Name, repository.Path)
	}
}

func runCommand(w io.Writer, r io.Reader) {
	_, _ = io.Copy(w, r)
}

func GitCommand(c *Context) {
	reqBody := c.EchoContext.Request().Body
	defer reqBody.Close()

	pushEvents := []*PayloadPushEvent{{Ref: "refs/heads/master", Pusher: c.MustGet("user").(*User)}}

	runCommand(c.EchoContext.Response(), reqBody)
	go PostReceiveHook(pushEvents, &Context{Repository: c.Repository, User: c.User, Service: c.Service})
}

func NewServer() *Echo {
	return NewEcho(WrapHandler(GitCommand), func(c EchoContext) {
		c.Set("user", &User{Name: "alice"})
		c.Set("repository", &Repository{ID: 1, Path: "org/app"})
	})
}
