// Source: https://github.com/DataDog/go-sqllexer/pull/52
// (commit https://github.com/DataDog/go-sqllexer/commit/dcfd1c93099e686f3853ce87111977a69942e18c,
// "fix high heap live size"). The PR description: "addresses race conditions
// caused by using sync.pool in StatementMetadata. *StatementMetadata returned
// by normalizer can be reset and put back to the pool before it's referenced."
//
// Bug: Normalize and ObfuscateAndNormalize take a *StatementMetadata from
// statementMetadataPool, defer its Put, and return it to the caller. The
// deferred Put runs as the function returns, so the caller gets an object
// that is already back in the pool; the next Normalize call resets it and
// fills it with another query's tables/commands while the first caller is
// still reading them.
// Fix: the pool was removed; each call allocates its StatementMetadata (and a
// separate metadataSet for the dedup maps).
//
// Check: useafterput (both functions return statementMetadata past the
// deferred statementMetadataPool.Put)
package bug

import (
	"strings"
	"sync"
)

// --- trimmed sqllexer.go ---

// TokenType is the kind of a token.
type TokenType int

const (
	ERROR TokenType = iota
	EOF
	SPACE
	IDENT
	COMMAND
	KEYWORD
	COMMENT
	NUMBER
)

// Token is a lexed token.
type Token struct {
	Type  TokenType
	Value string
}

// LastValueToken is the last non-space token seen.
type LastValueToken struct {
	Type             TokenType
	Value            string
	isTableIndicator bool
}

type lexerOption func(*Lexer)

// Lexer splits SQL into tokens.
type Lexer struct {
	words []string
	pos   int
}

// New creates a lexer.
func New(input string, opts ...lexerOption) *Lexer {
	l := &Lexer{words: strings.Fields(input)}
	for _, opt := range opts {
		opt(l)
	}
	return l
}

var commands = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true}
var tableIndicators = map[string]bool{"FROM": true, "JOIN": true, "INTO": true, "UPDATE": true}

// Scan returns the next token.
func (l *Lexer) Scan() *Token {
	if l.pos >= len(l.words) {
		return &Token{Type: EOF}
	}
	w := l.words[l.pos]
	l.pos++
	up := strings.ToUpper(w)
	switch {
	case strings.HasPrefix(w, "--"):
		return &Token{Type: COMMENT, Value: w}
	case commands[up]:
		return &Token{Type: COMMAND, Value: w}
	case tableIndicators[up]:
		return &Token{Type: KEYWORD, Value: w}
	case w[0] >= '0' && w[0] <= '9':
		return &Token{Type: NUMBER, Value: w}
	}
	return &Token{Type: IDENT, Value: w}
}

// --- normalizer.go ---

type normalizerConfig struct {
	CollectTables   bool
	CollectCommands bool
	CollectComments bool
}

type StatementMetadata struct {
	Size       int      `json:"size"`
	Tables     []string `json:"tables"`
	Comments   []string `json:"comments"`
	Commands   []string `json:"commands"`
	Procedures []string `json:"procedures"`
	// Internal maps for deduping during collection - exclude from JSON
	tablesSet     map[string]struct{} `json:"-"`
	commentsSet   map[string]struct{} `json:"-"`
	commandsSet   map[string]struct{} `json:"-"`
	proceduresSet map[string]struct{} `json:"-"`
}

// addMetadata adds a value to a metadata slice if it doesn't exist in the set
func (sm *StatementMetadata) addMetadata(value string, set map[string]struct{}, slice *[]string) {
	if _, exists := set[value]; !exists {
		set[value] = struct{}{}
		*slice = append(*slice, value)
		sm.Size += len(value)
	}
}

type Normalizer struct {
	config *normalizerConfig
}

// Add a pool for StatementMetadata reuse
var statementMetadataPool = sync.Pool{
	New: func() interface{} {
		return &StatementMetadata{
			Tables:        make([]string, 0, 4),
			Comments:      make([]string, 0, 2),
			Commands:      make([]string, 0, 4),
			Procedures:    make([]string, 0),
			tablesSet:     make(map[string]struct{}, 4),
			commentsSet:   make(map[string]struct{}, 2),
			commandsSet:   make(map[string]struct{}, 4),
			proceduresSet: make(map[string]struct{}),
		}
	},
}

// Reset StatementMetadata for reuse
func (sm *StatementMetadata) reset() {
	sm.Size = 0
	sm.resetSlice(&sm.Tables, 4)
	sm.resetSlice(&sm.Comments, 2)
	sm.resetSlice(&sm.Commands, 4)
	sm.resetSlice(&sm.Procedures, 0)

	// Just create new maps instead of clearing old ones
	sm.tablesSet = make(map[string]struct{}, 4)
	sm.commentsSet = make(map[string]struct{}, 2)
	sm.commandsSet = make(map[string]struct{}, 4)
	sm.proceduresSet = make(map[string]struct{})
}

func (sm *StatementMetadata) resetSlice(slice *[]string, capacity int) {
	for i := range *slice {
		(*slice)[i] = ""
	}
	*slice = (*slice)[:0]
	if cap(*slice) > capacity*2 {
		*slice = make([]string, 0, capacity)
	}
}

func NewNormalizer(config *normalizerConfig) *Normalizer {
	return &Normalizer{config: config}
}

// normalizeToken is a helper function that handles the common normalization logic
func (n *Normalizer) normalizeToken(lexer *Lexer, normalizedSQLBuilder *strings.Builder, statementMetadata *StatementMetadata, preProcessToken func(*Token, *LastValueToken), lexerOpts ...lexerOption) error {
	var lastValueToken *LastValueToken
	for {
		token := lexer.Scan()
		if token.Type == ERROR {
			return &lexError{token.Value}
		}
		if preProcessToken != nil {
			preProcessToken(token, lastValueToken)
		}
		if n.shouldCollectMetadata() {
			n.collectMetadata(token, lastValueToken, statementMetadata)
		}
		if token.Type == EOF {
			break
		}
		if normalizedSQLBuilder.Len() > 0 {
			normalizedSQLBuilder.WriteByte(' ')
		}
		normalizedSQLBuilder.WriteString(token.Value)
		lastValueToken = &LastValueToken{
			Type:             token.Type,
			Value:            token.Value,
			isTableIndicator: tableIndicators[strings.ToUpper(token.Value)],
		}
	}
	return nil
}

type lexError struct{ v string }

func (e *lexError) Error() string { return "unexpected token " + e.v }

func (n *Normalizer) Normalize(input string, lexerOpts ...lexerOption) (normalizedSQL string, statementMetadata *StatementMetadata, err error) {
	lexer := New(input, lexerOpts...)
	normalizedSQLBuilder := new(strings.Builder)
	normalizedSQLBuilder.Grow(len(input))

	statementMetadata = statementMetadataPool.Get().(*StatementMetadata)
	statementMetadata.reset()
	defer statementMetadataPool.Put(statementMetadata)

	if err = n.normalizeToken(lexer, normalizedSQLBuilder, statementMetadata, nil, lexerOpts...); err != nil {
		return "", nil, err
	}

	normalizedSQL = normalizedSQLBuilder.String()
	return n.trimNormalizedSQL(normalizedSQL), statementMetadata, nil // want `useafterput`
}

func (n *Normalizer) shouldCollectMetadata() bool {
	return n.config.CollectTables || n.config.CollectCommands || n.config.CollectComments
}

func (n *Normalizer) collectMetadata(token *Token, lastValueToken *LastValueToken, statementMetadata *StatementMetadata) {
	if n.config.CollectComments && token.Type == COMMENT {
		comment := token.Value
		statementMetadata.addMetadata(comment, statementMetadata.commentsSet, &statementMetadata.Comments)
	} else if token.Type == COMMAND {
		if n.config.CollectCommands {
			command := strings.ToUpper(token.Value)
			statementMetadata.addMetadata(command, statementMetadata.commandsSet, &statementMetadata.Commands)
		}
	} else if token.Type == IDENT {
		if n.config.CollectTables && lastValueToken != nil && lastValueToken.isTableIndicator {
			statementMetadata.addMetadata(token.Value, statementMetadata.tablesSet, &statementMetadata.Tables)
		}
	}
}

func (n *Normalizer) trimNormalizedSQL(normalizedSQL string) string {
	return strings.TrimSuffix(strings.TrimSpace(normalizedSQL), ";")
}

// --- obfuscator.go (trimmed) ---

// Obfuscator replaces literals with placeholders.
type Obfuscator struct{}

// ObfuscateTokenValue replaces a number with "?".
func (o *Obfuscator) ObfuscateTokenValue(token *Token, lastValueToken *LastValueToken, lexerOpts ...lexerOption) {
	if token.Type == NUMBER {
		token.Value = "?"
	}
}

// --- obfuscate_and_normalize.go ---

// ObfuscateAndNormalize takes an input SQL string and returns an normalized SQL string with metadata
// This function is a convenience function that combines the Obfuscator and Normalizer in one pass
func ObfuscateAndNormalize(input string, obfuscator *Obfuscator, normalizer *Normalizer, lexerOpts ...lexerOption) (normalizedSQL string, statementMetadata *StatementMetadata, err error) {
	lexer := New(input, lexerOpts...)
	normalizedSQLBuilder := new(strings.Builder)
	normalizedSQLBuilder.Grow(len(input))

	// Always allocate metadata for backward compatibility
	statementMetadata = statementMetadataPool.Get().(*StatementMetadata)
	statementMetadata.reset()
	defer statementMetadataPool.Put(statementMetadata)

	obfuscate := func(token *Token, lastValueToken *LastValueToken) {
		obfuscator.ObfuscateTokenValue(token, lastValueToken, lexerOpts...)
	}

	// Pass obfuscation as the pre-process step
	if err = normalizer.normalizeToken(lexer, normalizedSQLBuilder, statementMetadata, obfuscate, lexerOpts...); err != nil {
		return "", nil, err
	}

	normalizedSQL = normalizedSQLBuilder.String()
	return normalizer.trimNormalizedSQL(normalizedSQL), statementMetadata, nil // want `useafterput`
}
