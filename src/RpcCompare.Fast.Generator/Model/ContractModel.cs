namespace RpcCompare.Fast.Generator.Model;

/// <summary>One [FastContracts] partial class: where the code goes and what it holds.</summary>
// Namespace: The class's namespace; empty for the global one.
// ClassName: The partial class the generated types nest in.
// Contracts: The contracts generated.
// Skipped: "IContract: reason" for each contract listed but not generated (the runtime serves those through reflection).
internal sealed record ContractSet(string Namespace, string ClassName, EquatableArray<ContractModel> Contracts, EquatableArray<string> Skipped);

/// <summary>A service contract: its interface, its operations, and every method the proxy must implement.</summary>
// TypeName: The interface, fully qualified (global::...).
// GeneratedName: The generated class's name (unique in its set).
internal sealed record ContractModel(string TypeName, string GeneratedName, EquatableArray<OperationModel> Operations, EquatableArray<MethodModel> Methods);

/// <summary>
/// One operation as WCF names it (Async removed from a Task or ValueTask method, [OperationContract(Name)] kept),
/// its messages as the protobuf mapping shapes them, and the form of the method the server calls. One-way needs
/// nothing here: the runtime's operation description says it, for generated and reflected calls alike.
/// </summary>
internal sealed record OperationModel(string Name, MessageModel Request, MessageModel Reply, MethodModel ServerForm, bool ReplyHasResult);

/// <summary>How a message travels: the runtime's MessageShape by name (Empty, Bare, Envelope, Chunks).</summary>
internal enum Shape
{
    Empty,
    Bare,
    Envelope,
    Chunks,
}

/// <summary>One direction of an operation: the shape and the message type, or the envelope's fields 1..n in order.</summary>
// Type: The message's type in C# (the data contract, global::System.IO.Stream, or the envelope class's name).
internal sealed record MessageModel(Shape Shape, string Type, EquatableArray<FieldModel> Fields);

/// <summary>An envelope field: the value's name (a parameter's, or "result"), its type, and whether reading it takes an empty collection for null.</summary>
internal sealed record FieldModel(string Name, string Type, bool MayBeCollection);

/// <summary>How a method returns.</summary>
internal enum Form
{
    Sync,
    Task,
    ValueTask,

    /// <summary>A method the proxy implements by throwing: a Begin/End pair, or a method of the contract that is no operation.</summary>
    NotCalled,
}

/// <summary>A method of the contract as the proxy implements it.</summary>
// Declaring: The interface that declares it (explicit implementation).
// ReturnType: The declared return type in C#; "void" for none.
// Result: The value the form yields (T of Task&lt;T&gt;, the sync return type), null for none.
// Operation: Index of its operation in the contract's list; -1 when it is not called.
internal sealed record MethodModel(string Declaring, string Name, string ReturnType, Form Form, string? Result, EquatableArray<ParameterModel> Parameters, int Operation);

/// <summary>How a parameter passes.</summary>
internal enum Passing
{
    In,
    Ref,
    Out,
    CancellationToken,
}

internal sealed record ParameterModel(string Name, string Type, Passing Passing);
