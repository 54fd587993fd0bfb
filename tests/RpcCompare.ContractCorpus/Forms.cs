using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>One operation in a synchronous and a Task form: WCF merges them (and CoreWCF refuses to serve that).</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface ISyncAndTaskForms
{
    [OperationContract]
    int Add(int a, int b);

    [OperationContract]
    Task<int> AddAsync(int a, int b);
}

/// <summary>ValueTask forms, which WCF does not know, and a cancellation token, which is not data.</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface IValueTaskForms
{
    [OperationContract]
    ValueTask<int> AddAsync(int a, int b, CancellationToken cancellationToken);

    [OperationContract]
    ValueTask ClearAsync();

    [OperationContract]
    int Multiply(int a, int b);

    [OperationContract]
    ValueTask<int> MultiplyAsync(int a, int b);

    [OperationContract(Name = "Renamed")]
    ValueTask<string> EchoAsync(string text);
}

/// <summary>A ValueTask method whose logical name clashes with another operation of a different signature.</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface IValueTaskClash
{
    [OperationContract]
    int Add(int a, int b);

    [OperationContract]
    ValueTask<long> AddAsync(long a, long b);
}

/// <summary>Begin/End, the .NET Framework 2.0 asynchronous pattern.</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface IAsyncPattern
{
    [OperationContract(AsyncPattern = true)]
    IAsyncResult BeginLookup(string key, AsyncCallback callback, object state);

    string EndLookup(IAsyncResult result);
}

/// <summary>ValueTask methods whose names do not end in Async, or whose result part is named.</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface IValueTaskNames
{
    [OperationContract]
    ValueTask<int> Compute(int a);

    [OperationContract]
    [return: MessageParameter(Name = "sum")]
    ValueTask<int> TotalAsync(int a);

    [OperationContract(Action = "urn:corpus:explicit")]
    ValueTask<int> ExplicitAsync(int a);
}

/// <summary>Begin/End with an out parameter on the End method.</summary>
[ServiceContract(Namespace = "urn:corpus:forms")]
public interface IAsyncPatternWithOut
{
    [OperationContract(AsyncPattern = true)]
    IAsyncResult BeginSplit(int value, AsyncCallback callback, object state);

    int EndSplit(out int remainder, IAsyncResult result);
}
