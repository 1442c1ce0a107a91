package bug

import "encoding/binary"

type unpacker struct {
	buffer []byte
	offset int
	length int
}

func newUnpacker(buffer []byte, offset int, length int) *unpacker {
	return &unpacker{
		buffer: buffer,
		offset: offset,
		length: length,
	}
}

func (upckr *unpacker) UnpackList() ([]interface{}, error) {
	if upckr.length <= 0 {
		return nil, nil
	}

	theType := upckr.buffer[upckr.offset] & 0xff
	upckr.offset++
	var count int

	if (theType & 0xf0) == 0x90 {
		count = int(theType & 0x0f)
	} else if theType == 0xdc {
		count = int(binary.BigEndian.Uint16(upckr.buffer[upckr.offset:]))
		upckr.offset += 2
	} else {
		return nil, nil
	}

	out := make([]interface{}, 0, count)
	for i := 0; i < count; i++ {
		obj, err := upckr.unpackObject()
		if err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

func (upckr *unpacker) UnpackMap() (map[interface{}]interface{}, error) {
	if upckr.length <= 0 {
		return nil, nil
	}

	theType := upckr.buffer[upckr.offset] & 0xff
	upckr.offset++
	var count int

	if (theType & 0xf0) == 0x80 {
		count = int(theType & 0x0f)
	} else {
		return make(map[interface{}]interface{}), nil
	}

	out := make(map[interface{}]interface{}, count)
	for i := 0; i < count; i++ {
		key, err := upckr.unpackObject()
		if err != nil {
			return nil, err
		}
		val, err := upckr.unpackObject()
		if err != nil {
			return nil, err
		}
		out[key] = val
	}
	return out, nil
}

func (upckr *unpacker) unpackBlob(count int) (interface{}, error) {
	theType := upckr.buffer[upckr.offset] & 0xff
	upckr.offset++
	count--
	var val interface{}

	switch theType {
	case particleString:
		val = string(upckr.buffer[upckr.offset : upckr.offset+count])

	default:
		val = upckr.buffer[upckr.offset : upckr.offset+count]
	}
	upckr.offset += count

	return val, nil
}

func (upckr *unpacker) unpackObject() (interface{}, error) {
	theType := upckr.buffer[upckr.offset] & 0xff
	upckr.offset++

	switch theType {
	case 0xc0:
		return nil, nil
	case 0xc4, 0xd9:
		count := int(upckr.buffer[upckr.offset] & 0xff)
		upckr.offset++
		return upckr.unpackBlob(count)
	case 0xc5, 0xda:
		count := int(binary.BigEndian.Uint16(upckr.buffer[upckr.offset:]))
		upckr.offset += 2
		return upckr.unpackBlob(count)
	}

	if theType < 0x80 {
		return int64(theType), nil
	}
	if theType >= 0xa0 && theType <= 0xbf {
		return upckr.unpackBlob(int(theType & 0x1f))
	}
	return nil, nil
}
