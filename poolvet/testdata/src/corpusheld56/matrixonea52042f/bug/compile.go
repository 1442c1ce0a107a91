package bug

// ---- pkg/sql/compile ----

type Scope struct {
	Magic     int
	PreScopes []*Scope
}

func (s Scope) TypeName() string {
	return "compile.Scope"
}

type Compile struct {
	scopes []*Scope
	sql    string
}

func (c Compile) TypeName() string {
	return "compile.Compile"
}

func init() {
	CreatePool[Compile](
		func() *Compile {
			return &Compile{}
		},
		func(c *Compile) {
			c.clear()
		},
		DefaultOptions[Compile]().
			WithEnableChecker(),
	)

	CreatePool[Scope](
		func() *Scope {
			return &Scope{}
		},
		func(s *Scope) { *s = Scope{} },
		DefaultOptions[Scope]().
			WithEnableChecker(),
	)
}

func (c *Compile) clear() {
	for i := range c.scopes {
		c.scopes[i].release()
	}
	c.scopes = c.scopes[:0]
	c.sql = ""
}

func newScope() *Scope {
	s := Alloc[Scope](nil)
	s.Magic = 1
	return s
}

func ReleaseScopes(ss []*Scope) {
	for i := range ss {
		ss[i].release()
	}
}

func (s *Scope) release() {
	if s == nil {
		return
	}
	for i := range s.PreScopes {
		s.PreScopes[i].release()
	}
	Free[Scope](s, nil)
}

func (c *Compile) compilePlanScope(n int) ([]*Scope, error) {
	scopes := make([]*Scope, 0, n)
	for i := 0; i < n; i++ {
		scopes = append(scopes, newScope())
	}
	return scopes, nil
}

// ---- pkg/sql/compile/correlated_apply.go ----

type correlatedApplyRunner struct {
	compile *Compile
	scopes  []*Scope
}

func newCorrelatedApplyRunner(parent *Compile, n int) (*correlatedApplyRunner, error) {
	childCompile := Alloc[Compile](nil)
	childCompile.sql = parent.sql
	childCompile.scopes = nil

	runner := &correlatedApplyRunner{compile: childCompile}
	scopes, err := childCompile.compilePlanScope(n)
	if err != nil {
		runner.Free()
		return nil, err
	}
	runner.scopes = scopes
	childCompile.scopes = scopes
	return runner, nil
}

func (r *correlatedApplyRunner) Free() {
	if r.compile != nil {
		ReleaseScopes(r.scopes)
		Free[Compile](r.compile, nil) // want `doubleput`
		r.compile = nil
	}
}
