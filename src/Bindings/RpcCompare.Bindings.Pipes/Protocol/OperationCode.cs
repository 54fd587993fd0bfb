namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>
/// The first byte after a request's length prefix. Grouped by contract in blocks of 16 so a
/// contract can grow without renumbering the others. Values are wire format: never reuse one.
/// </summary>
internal enum OperationCode : byte
{
    Ping = 0x01,
    ReadDirectory = 0x02,
    WriteAt = 0x03,

    VoidCall = 0x10,
    TakeInt = 0x11,
    ReturnInt = 0x12,
    Increment = 0x13,
    TakePoint = 0x14,

    EchoBytes = 0x20,
    SendBytes = 0x21,
    SendRecords = 0x22,
    SendString = 0x23,

    Subscribe = 0x30,
    Unsubscribe = 0x31,
    Publish = 0x32,
}
