// Package bug reproduces the shape of go-gomail/gomail#200
// (https://github.com/go-gomail/gomail/issues/200): in gomail.v1 the mailer
// serialises the message header into a *bytes.Buffer borrowed from a package
// pool and returns it to the pool with a deferred putBuffer, but the function
// returns buf.Bytes(). The caller then appends the body to that slice and hands
// it to the SMTP sender while another goroutine sending a different e-mail may
// already have taken the same buffer and overwritten it, so one recipient can
// receive another message's header or body. The fix suggested in the issue is
// to return a copy of the bytes.
// Check: useafterput (flattenHeader returns a view of the buffer that its deferred putBuffer recycles).
package bug

import (
	"bytes"
	"errors"
	"io"
	"net/mail"
	"strings"
	"sync"
)

var bufPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

func getBuffer() *bytes.Buffer {
	return bufPool.Get().(*bytes.Buffer)
}

func putBuffer(buf *bytes.Buffer) {
	if buf.Len() > 1024 {
		return
	}
	buf.Reset()
	bufPool.Put(buf)
}

// SendFunc delivers one raw message.
type SendFunc func(addr, from string, to []string, msg []byte) error

// Mailer sends messages through send.
type Mailer struct {
	addr string
	send SendFunc
}

// Send sends msg to every recipient, and once more per Bcc address.
func (m *Mailer) Send(msg *mail.Message) error {
	from := msg.Header.Get("From")
	if from == "" {
		return errors.New("mailer: invalid message, \"From\" field is absent")
	}
	recipients, bcc := getRecipients(msg)

	h := flattenHeader(msg, "")
	body, err := io.ReadAll(msg.Body)
	if err != nil {
		return err
	}

	raw := append(h, body...)
	if err := m.send(m.addr, from, recipients, raw); err != nil {
		return err
	}

	for _, to := range bcc {
		h = flattenHeader(msg, to)
		raw = append(h, body...)
		if err := m.send(m.addr, from, []string{to}, raw); err != nil {
			return err
		}
	}
	return nil
}

func flattenHeader(msg *mail.Message, bcc string) []byte {
	buf := getBuffer()
	defer putBuffer(buf)

	for field, value := range msg.Header {
		if field != "Bcc" {
			buf.WriteString(field)
			buf.WriteString(": ")
			buf.WriteString(strings.Join(value, ", "))
			buf.WriteString("\r\n")
		} else if bcc != "" {
			for _, to := range value {
				if strings.Contains(to, bcc) {
					buf.WriteString(field)
					buf.WriteString(": ")
					buf.WriteString(to)
					buf.WriteString("\r\n")
				}
			}
		}
	}
	buf.WriteString("\r\n")

	return buf.Bytes() // want `useafterput`
}

func getRecipients(msg *mail.Message) (to, bcc []string) {
	for _, field := range []string{"To", "Cc"} {
		for _, v := range msg.Header[field] {
			to = append(to, strings.Split(v, ",")...)
		}
	}
	for _, v := range msg.Header["Bcc"] {
		bcc = append(bcc, strings.Split(v, ",")...)
	}
	return to, bcc
}
