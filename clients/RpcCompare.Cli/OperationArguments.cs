namespace RpcCompare.Cli;

/// <summary>Every argument any operation takes; each operation reads the ones it needs.</summary>
internal sealed record OperationArguments(
    string? Path,
    int Count,
    long? Offset,
    int Repeat,
    int Value,
    int Size,
    string? Text,
    int X,
    int Y,
    int Z,
    double Weight);
