namespace RpcCompare.Description;

/// <summary>The method forms one operation is declared in; WCF merges forms that share a name.</summary>
[Flags]
public enum OperationForms
{
    None = 0,

    /// <summary>A method returning the result (or void) directly.</summary>
    Synchronous = 1,

    /// <summary>A method returning Task or Task&lt;T&gt;, named with or without the Async suffix.</summary>
    Task = 2,

    /// <summary>A Begin/End pair (AsyncPattern = true).</summary>
    AsyncPattern = 4,

    /// <summary>A method returning ValueTask or ValueTask&lt;T&gt;: not a WCF form; RpcCompare names it as WCF names Task methods.</summary>
    ValueTask = 8,
}
