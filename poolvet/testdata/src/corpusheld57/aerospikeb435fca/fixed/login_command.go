package fixed

import (
	"encoding/binary"
	"errors"
)

const (
	_SESSION_TOKEN = 5
	_SESSION_TTL   = 6
	_HEADER_SIZE   = 24
)

// loginCommand authenticates to the server.
type loginCommand struct {
	dataBuffer []byte
	dataOffset int

	// SessionToken for the current session on the external authentication server.
	SessionToken []byte
}

func newLoginCommand(buf []byte) *loginCommand {
	return &loginCommand{dataBuffer: buf}
}

func (lcmd *loginCommand) login(conn *Connection, user string, hashedPass []byte) error {
	lcmd.dataOffset = copy(lcmd.dataBuffer[_HEADER_SIZE:], user) + _HEADER_SIZE
	lcmd.dataOffset += copy(lcmd.dataBuffer[lcmd.dataOffset:], hashedPass)
	if _, err := conn.conn.Write(lcmd.dataBuffer[:lcmd.dataOffset]); err != nil {
		return err
	}

	if _, err := conn.Read(lcmd.dataBuffer, _HEADER_SIZE); err != nil {
		return err
	}

	// Read session token.
	receiveSize := int(binary.BigEndian.Uint32(lcmd.dataBuffer[4:]))
	fieldCount := int(lcmd.dataBuffer[11] & 0xFF)

	if receiveSize <= 0 || receiveSize > len(lcmd.dataBuffer) || fieldCount <= 0 {
		return errors.New("Node failed to retrieve session token")
	}

	if _, err := conn.Read(lcmd.dataBuffer, receiveSize); err != nil {
		return err
	}

	lcmd.dataOffset = 0
	for i := 0; i < fieldCount; i++ {
		mlen := int(binary.BigEndian.Uint32(lcmd.dataBuffer[lcmd.dataOffset:]))
		lcmd.dataOffset += 4
		id := lcmd.dataBuffer[lcmd.dataOffset]
		lcmd.dataOffset++
		mlen--

		switch id {
		case _SESSION_TOKEN:
			// copy the contents of the buffer into a new byte slice
			lcmd.SessionToken = make([]byte, mlen)
			copy(lcmd.SessionToken, lcmd.dataBuffer[lcmd.dataOffset:lcmd.dataOffset+mlen])
		case _SESSION_TTL:
			// session TTL handling trimmed
		}

		lcmd.dataOffset += mlen
	}

	if lcmd.SessionToken == nil {
		return errors.New("Node failed to retrieve session token")
	}
	return nil
}

func (lcmd *loginCommand) authenticateViaToken(conn *Connection, sessionToken []byte) error {
	lcmd.dataOffset = copy(lcmd.dataBuffer[_HEADER_SIZE:], sessionToken) + _HEADER_SIZE
	if _, err := conn.conn.Write(lcmd.dataBuffer[:lcmd.dataOffset]); err != nil {
		return err
	}

	if _, err := conn.Read(lcmd.dataBuffer, _HEADER_SIZE); err != nil {
		return err
	}
	if lcmd.dataBuffer[9] != 0 {
		return errors.New("authentication failed")
	}
	return nil
}
